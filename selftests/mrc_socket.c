// SPDX-License-Identifier: GPL-2.0
/*
 * AF_MRC socket API: creation for each socket type, rejection of unknown
 * types and protocols, address validation and the errors an unconnected
 * socket returns. Runs in the guest with mrc.ko loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "kselftest_harness.h"
#include "mrc_lib.h"

FIXTURE(mrc_socket)
{
	int family;
	int fd;
};

FIXTURE_VARIANT(mrc_socket)
{
	int type;
};

FIXTURE_VARIANT_ADD(mrc_socket, stream)
{
	.type = SOCK_STREAM,
};

FIXTURE_VARIANT_ADD(mrc_socket, seqpacket)
{
	.type = SOCK_SEQPACKET,
};

FIXTURE_SETUP(mrc_socket)
{
	self->family = mrc_lib_family();
	ASSERT_GT(self->family, 0) TH_LOG("mrc.ko not loaded");
	self->fd = socket(self->family, variant->type, 0);
	ASSERT_GE(self->fd, 0) TH_LOG("socket: %s", strerror(errno));
}

FIXTURE_TEARDOWN(mrc_socket)
{
	if (self->fd >= 0)
		close(self->fd);
}

static struct sockaddr_mrc mrc_addr4(int family, const char *ip, int port)
{
	struct sockaddr_mrc a = {
		.mrc_family = family,
		.mrc_port = htons(port),
		.mrc_addr_family = AF_INET,
	};

	inet_pton(AF_INET, ip, &a.mrc_addr4);
	return a;
}

static int getsockopt_int(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int val = -1;

	if (getsockopt(fd, SOL_SOCKET, opt, &val, &len))
		return -errno;
	return val;
}

TEST_F(mrc_socket, identity)
{
	EXPECT_EQ(variant->type, getsockopt_int(self->fd, SO_TYPE));
	EXPECT_EQ(self->family, getsockopt_int(self->fd, SO_DOMAIN));
	EXPECT_EQ(MRC_PROTO_DEFAULT, getsockopt_int(self->fd, SO_PROTOCOL));
}

TEST_F(mrc_socket, flags_at_creation)
{
	int fd = socket(self->family, variant->type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	ASSERT_GE(fd, 0);
	EXPECT_TRUE(fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST_F(mrc_socket, bad_protocol)
{
	errno = 0;
	EXPECT_EQ(-1, socket(self->family, variant->type, 6));
	EXPECT_EQ(EPROTONOSUPPORT, errno);
}

TEST_F(mrc_socket, bind_validates_address)
{
	struct sockaddr_mrc a = mrc_addr4(self->family, "10.100.0.1", 4791);

	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a) - 1));
	EXPECT_EQ(EINVAL, errno);

	a.mrc_family = AF_INET;
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EAFNOSUPPORT, errno);

	a = mrc_addr4(self->family, "10.100.0.1", 4791);
	a.mrc_addr_family = AF_UNIX;
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EAFNOSUPPORT, errno);

	a = mrc_addr4(self->family, "10.100.0.1", 4791);
	a.mrc_reserved = 1;
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno);

	/* Well formed, but no plane of this netns has that address. */
	a = mrc_addr4(self->family, "10.100.0.1", 4791);
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EADDRNOTAVAIL, errno);
}

TEST_F(mrc_socket, bind_claims_the_port)
{
	struct sockaddr_mrc a = mrc_addr4(self->family, "0.0.0.0", 4791), got;
	socklen_t len = sizeof(got);
	int other = socket(self->family, variant->type, 0);

	ASSERT_LE(0, other);
	ASSERT_EQ(0, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(0, getsockname(self->fd, (struct sockaddr *)&got, &len));
	EXPECT_EQ(htons(4791), got.mrc_port);
	EXPECT_EQ(-1, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, bind(other, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EADDRINUSE, errno);
	close(self->fd);
	self->fd = -1;
	/* Released with the socket. */
	EXPECT_EQ(0, bind(other, (struct sockaddr *)&a, sizeof(a)));
	close(other);
}

TEST_F(mrc_socket, connect_validates_address)
{
	struct sockaddr_mrc a = mrc_addr4(self->family, "10.100.0.2", 4791);

	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, 4));
	EXPECT_EQ(EINVAL, errno);

	a.mrc_family = AF_INET6;
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EAFNOSUPPORT, errno);

	/* Well formed, but no plane routes there. */
	a = mrc_addr4(self->family, "10.100.0.2", 4791);
	EXPECT_EQ(-1, connect(self->fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(ENETUNREACH, errno);
}

TEST_F(mrc_socket, unconnected_errors)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);
	char buf[16] = "x";

	EXPECT_EQ(-1, getpeername(self->fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, send(self->fd, buf, sizeof(buf), MSG_NOSIGNAL));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, recv(self->fd, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, shutdown(self->fd, SHUT_RDWR));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, shutdown(self->fd, 7));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, accept(self->fd, NULL, NULL));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(mrc_socket, listen_binds_an_ephemeral_port)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);

	ASSERT_EQ(0, listen(self->fd, 8));
	ASSERT_EQ(0, getsockname(self->fd, (struct sockaddr *)&a, &len));
	EXPECT_LE(32768, ntohs(a.mrc_port));
	EXPECT_GE(60999, ntohs(a.mrc_port));
	/* Nobody connects: a non-blocking accept has nothing to give. */
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, accept(self->fd, NULL, NULL));
	EXPECT_EQ(EAGAIN, errno);
	/* listen() twice is fine; connect() on a listener is not. */
	EXPECT_EQ(0, listen(self->fd, 16));
}

TEST_F(mrc_socket, getsockname_unbound)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);

	memset(&a, 0xff, sizeof(a));
	ASSERT_EQ(0, getsockname(self->fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ((socklen_t)sizeof(a), len);
	EXPECT_EQ(self->family, a.mrc_family);
	EXPECT_EQ(0, a.mrc_port);
	EXPECT_EQ(0, a.mrc_addr_family);
}

TEST_F(mrc_socket, sockopts)
{
	int val = 1 << 16, out, bad = 0;
	socklen_t len = sizeof(out);

	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, 99, &val, sizeof(val)));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(-1, getsockopt(self->fd, SOL_MRC, 99, &out, &len));
	EXPECT_EQ(ENOPROTOOPT, errno);

	/* MRC options: ranges checked, values read back, ids need a conn. */
	ASSERT_EQ(0, setsockopt(self->fd, SOL_MRC, MRC_USER_TIMEOUT, &val,
				sizeof(val)));
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_USER_TIMEOUT, &out, &len));
	EXPECT_EQ(val, out);
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_USER_TIMEOUT, &bad,
				 sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);
	bad = 257;
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_EV_COUNT, &bad,
				 sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_EV_COUNT, &val, 2));
	EXPECT_EQ(EINVAL, errno);
	/* MRC_TRAIN: 1..64, default 44 */
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_TRAIN, &out, &len));
	EXPECT_EQ(44, out);
	bad = 65;
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_TRAIN, &bad,
				 sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);
	bad = 0;
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_TRAIN, &bad,
				 sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);
	out = 1;
	ASSERT_EQ(0, setsockopt(self->fd, SOL_MRC, MRC_TRAIN, &out,
				sizeof(out)));
	out = 0;
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_TRAIN, &out, &len));
	EXPECT_EQ(1, out);
	EXPECT_EQ(-1, getsockopt(self->fd, SOL_MRC, MRC_CONN_ID, &out, &len));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_CONN_ID, &val,
				 sizeof(val)));
	EXPECT_EQ(EPERM, errno);

	/* SOL_SOCKET is the generic layer's; it doubles for bookkeeping. */
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_SNDBUF, &val, sizeof(val)));
	EXPECT_EQ(2 * val, getsockopt_int(self->fd, SO_SNDBUF));
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val)));
	EXPECT_EQ(2 * val, getsockopt_int(self->fd, SO_RCVBUF));
}

TEST_F(mrc_socket, poll_and_epoll)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLOUT };
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
	int ep;

	ASSERT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLHUP);
	EXPECT_FALSE(pfd.revents & POLLIN);

	ep = epoll_create1(0);
	ASSERT_GE(ep, 0);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->fd, &ev));
	EXPECT_EQ(1, epoll_wait(ep, &ev, 1, 0));
	EXPECT_TRUE(!!(ev.events & EPOLLHUP));
	close(ep);
}

TEST_F(mrc_socket, socketpair_unsupported)
{
	int sv[2];

	EXPECT_EQ(-1, socketpair(self->family, variant->type, 0, sv));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

TEST_F(mrc_socket, counters_and_release)
{
	long long created = mrc_lib_stat("SockCreate");
	long long released = mrc_lib_stat("SockRelease");
	long long inuse = mrc_lib_stat("SockInUse");
	int fds[256], i;

	ASSERT_GE(created, 1);
	for (i = 0; i < 256; i++)
		ASSERT_GE(fds[i] = socket(self->family, variant->type, 0), 0);
	EXPECT_EQ(created + 256, mrc_lib_stat("SockCreate"));
	EXPECT_EQ(inuse + 256, mrc_lib_stat("SockInUse"));
	for (i = 0; i < 256; i++)
		close(fds[i]);
	EXPECT_EQ(released + 256, mrc_lib_stat("SockRelease"));
	EXPECT_EQ(inuse, mrc_lib_stat("SockInUse"));
}

TEST(unsupported_types)
{
	static const int types[] = { SOCK_DGRAM, SOCK_RAW, SOCK_RDM, SOCK_DCCP };
	int family = mrc_lib_family();
	long long rejected = mrc_lib_stat("SockReject");
	unsigned int i;

	ASSERT_GT(family, 0);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, socket(family, types[i], 0));
		EXPECT_EQ(ESOCKTNOSUPPORT, errno) TH_LOG("type %d", types[i]);
	}
	EXPECT_EQ(rejected + 4, mrc_lib_stat("SockReject"));
}

/*
 * MRC_LISTEN_TCP: the listener also accepts TCP clients on its port; a
 * stream option only, its flags checked, read back.
 */
TEST_F(mrc_socket, listen_tcp_option)
{
	unsigned int on = MRC_LISTEN_TCP_ON, bad = 4, out = 9;
	socklen_t len = sizeof(out);

	if (variant->type != SOCK_STREAM) {
		EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_LISTEN_TCP, &on,
					 sizeof(on)));
		EXPECT_EQ(EOPNOTSUPP, errno);
		return;
	}
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_LISTEN_TCP, &bad,
				 sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_LISTEN_TCP, &out, &len));
	EXPECT_EQ(0U, out);
	ASSERT_EQ(0, setsockopt(self->fd, SOL_MRC, MRC_LISTEN_TCP, &on,
				sizeof(on)));
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_LISTEN_TCP, &out, &len));
	EXPECT_EQ(on, out);
}

/*
 * A TCP listener on 0.0.0.0:@port with MRC_LISTEN_TCP, non-blocking, with
 * SO_REUSEADDR as servers set it (its TCP listener and children take it).
 */
static int listen_tcp_too(int family, int port)
{
	struct sockaddr_mrc a = mrc_addr4(family, "0.0.0.0", port);
	unsigned int on = MRC_LISTEN_TCP_ON;
	int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_MRC, MRC_LISTEN_TCP, &on, sizeof(on)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 8)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int tcp_connect_local(int port)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&in, sizeof(in))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A TCP client of an MRC listener: poll and epoll see it, accept() gives
 * a TCP socket (its name a sockaddr_in) that carries data both ways, the
 * counter says so; then the queue is empty again (EAGAIN).
 */
TEST(listen_tcp_accepts_a_tcp_client)
{
	int family = mrc_lib_family(), lfd, cfd, afd, ep, val;
	struct epoll_event ev = { .events = EPOLLIN };
	long long tcp0 = mrc_lib_stat("ListenTcpAccept");
	struct pollfd p;
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer), vlen = sizeof(val);
	char buf[6];

	ASSERT_GT(family, 0);
	lfd = listen_tcp_too(family, 4801);
	ASSERT_LE(0, lfd) TH_LOG("listen: %s", strerror(errno));
	ep = epoll_create1(0);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev));
	EXPECT_EQ(0, epoll_wait(ep, &ev, 1, 0));
	EXPECT_EQ(-1, accept(lfd, NULL, NULL));
	EXPECT_EQ(EAGAIN, errno);

	cfd = tcp_connect_local(4801);
	ASSERT_LE(0, cfd) TH_LOG("TCP connect: %s", strerror(errno));
	ASSERT_EQ(1, epoll_wait(ep, &ev, 1, 5000));
	EXPECT_TRUE(!!(ev.events & EPOLLIN));
	p = (struct pollfd){ .fd = lfd, .events = POLLIN };
	ASSERT_EQ(1, poll(&p, 1, 0));

	afd = accept(lfd, (struct sockaddr *)&peer, &len);
	ASSERT_LE(0, afd) TH_LOG("accept: %s", strerror(errno));
	EXPECT_EQ(AF_INET, peer.sin_family);
	EXPECT_EQ(htonl(INADDR_LOOPBACK), peer.sin_addr.s_addr);
	ASSERT_EQ(0, getsockopt(afd, SOL_SOCKET, SO_PROTOCOL, &val, &vlen));
	EXPECT_EQ(IPPROTO_TCP, val);
	EXPECT_EQ(tcp0 + 1, mrc_lib_stat("ListenTcpAccept"));
	ASSERT_EQ(5, send(cfd, "hello", 5, 0));
	ASSERT_EQ(5, recv(afd, buf, 5, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	ASSERT_EQ(5, send(afd, "back!", 5, 0));
	ASSERT_EQ(5, recv(cfd, buf, 5, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "back!", 5));

	EXPECT_EQ(0, poll(&p, 1, 0));
	EXPECT_EQ(-1, accept(lfd, NULL, NULL));
	EXPECT_EQ(EAGAIN, errno);
	close(afd);
	close(cfd);
	close(ep);
	close(lfd);
}

/*
 * A blocking accept() wakes for a TCP client, and a blocking read of the
 * accepted socket for its data; closing the listener resets
 * a client nobody accepted and frees the TCP port; without the option no
 * TCP port is taken.
 */
TEST(listen_tcp_blocking_accept_and_close)
{
	int family = mrc_lib_family(), lfd, cfd, afd, tfd;
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(4802) };
	struct sockaddr_mrc mrc = mrc_addr4(family, "0.0.0.0", 4802);
	int status = -1, one = 1;
	char b;
	pid_t pid;

	ASSERT_GT(family, 0);
	lfd = listen_tcp_too(family, 4802);
	ASSERT_LE(0, lfd);
	ASSERT_EQ(0, fcntl(lfd, F_SETFL, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* Sent once the reader waits: it must wake on its own socket. */
		usleep(300000);
		cfd = tcp_connect_local(4802);
		usleep(300000);
		_exit(cfd < 0 || send(cfd, "x", 1, 0) != 1 ? 1 : 0);
	}
	afd = accept(lfd, NULL, NULL);
	ASSERT_LE(0, afd) TH_LOG("accept: %s", strerror(errno));
	ASSERT_EQ(1, recv(afd, &b, 1, MSG_WAITALL));
	EXPECT_EQ(0, recv(afd, &b, 1, 0));	/* the client closes first */
	close(afd);

	/* A client nobody accepted is reset when the listener closes. */
	cfd = tcp_connect_local(4802);
	ASSERT_LE(0, cfd);
	close(lfd);
	EXPECT_EQ(-1, recv(cfd, &b, 1, 0));
	EXPECT_EQ(ECONNRESET, errno);
	close(cfd);
	/*
	 * The TCP port is free again (SO_REUSEADDR, as the listener had: the
	 * reset client may still be closing on it)...
	 */
	tfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_EQ(0, setsockopt(tfd, SOL_SOCKET, SO_REUSEADDR, &one,
				sizeof(one)));
	ASSERT_EQ(0, bind(tfd, (struct sockaddr *)&in, sizeof(in)));
	/* ...and held by TCP now: an MRC listener that wants it too fails. */
	ASSERT_EQ(0, listen(tfd, 1));
	EXPECT_EQ(-1, listen_tcp_too(family, 4802));
	EXPECT_EQ(EADDRINUSE, errno);
	close(tfd);
	/* Without the option, an MRC listener on the port takes no TCP. */
	lfd = socket(family, SOCK_STREAM, 0);
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&mrc, sizeof(mrc)));
	ASSERT_EQ(0, listen(lfd, 1));
	EXPECT_EQ(-1, tcp_connect_local(4802));
	EXPECT_EQ(ECONNREFUSED, errno);
	close(lfd);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * MRC_CONNECT_TCP: milliseconds before connect() goes TCP, stream only,
 * read back; MRC_CONNECT_TCP_USED is read-only and 0 until it happens.
 */
TEST_F(mrc_socket, connect_tcp_option)
{
	unsigned int ms = 1500, out = 9;
	socklen_t len = sizeof(out);

	if (variant->type != SOCK_STREAM) {
		EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_CONNECT_TCP, &ms,
					 sizeof(ms)));
		EXPECT_EQ(EOPNOTSUPP, errno);
		return;
	}
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_CONNECT_TCP, &out, &len));
	EXPECT_EQ(0U, out);
	ASSERT_EQ(0, setsockopt(self->fd, SOL_MRC, MRC_CONNECT_TCP, &ms,
				sizeof(ms)));
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_CONNECT_TCP, &out, &len));
	EXPECT_EQ(ms, out);
	ASSERT_EQ(0, getsockopt(self->fd, SOL_MRC, MRC_CONNECT_TCP_USED, &out,
				&len));
	EXPECT_EQ(0U, out);
	EXPECT_EQ(-1, setsockopt(self->fd, SOL_MRC, MRC_CONNECT_TCP_USED, &ms,
				 sizeof(ms)));
	EXPECT_EQ(EPERM, errno);
}

/* A plain TCP listener on 127.0.0.1:@port. */
static int tcp_listen_local(int port)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&in, sizeof(in)) || listen(fd, 4)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* An AF_MRC stream socket with MRC_CONNECT_TCP (and @flags at creation). */
static int mrc_connect_tcp_socket(int family, int flags)
{
	unsigned int ms = 2000;
	int fd = socket(family, SOCK_STREAM | flags, 0);

	if (fd >= 0 &&
	    setsockopt(fd, SOL_MRC, MRC_CONNECT_TCP, &ms, sizeof(ms))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int connect_tcp_used(int fd)
{
	socklen_t len = sizeof(int);
	int why = -1;

	if (getsockopt(fd, SOL_MRC, MRC_CONNECT_TCP_USED, &why, &len))
		return -errno;
	return why;
}

/*
 * No plane here routes to 127.0.0.1 (this test boots with none): with
 * MRC_CONNECT_TCP a blocking connect() goes TCP at once and the socket
 * carries a TCP connection: names, TCP options, TCP_INFO, ioctls, data
 * both ways, shutdown; without the option it is ENETUNREACH as before.
 */
TEST(connect_tcp_blocking)
{
	int family = mrc_lib_family(), lfd, fd, afd, one = 1, val = 0;
	struct sockaddr_mrc a = mrc_addr4(family, "127.0.0.1", 4803), name;
	long long tcp0 = mrc_lib_stat("ConnectTcp");
	socklen_t len = sizeof(name), vlen = sizeof(val);
	struct tcp_info ti;
	char buf[8];

	ASSERT_GT(family, 0);
	lfd = tcp_listen_local(4803);
	ASSERT_LE(0, lfd) TH_LOG("TCP listen: %s", strerror(errno));
	fd = socket(family, SOCK_STREAM, 0);
	ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(ENETUNREACH, errno);
	close(fd);

	fd = mrc_connect_tcp_socket(family, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, connect(fd, (struct sockaddr *)&a, sizeof(a)))
		TH_LOG("connect: %s", strerror(errno));
	EXPECT_EQ(MRC_CONNECT_TCP_UNREACHABLE, connect_tcp_used(fd));
	EXPECT_EQ(tcp0 + 1, mrc_lib_stat("ConnectTcp"));
	EXPECT_EQ(-1, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EISCONN, errno);
	ASSERT_EQ(0, getpeername(fd, (struct sockaddr *)&name, &len));
	EXPECT_EQ(family, name.mrc_family);
	EXPECT_EQ(AF_INET, name.mrc_addr_family);
	EXPECT_EQ(htonl(INADDR_LOOPBACK), name.mrc_addr4);
	EXPECT_EQ(htons(4803), name.mrc_port);
	ASSERT_EQ(0, getsockname(fd, (struct sockaddr *)&name, &len));
	EXPECT_EQ(htonl(INADDR_LOOPBACK), name.mrc_addr4);
	EXPECT_NE(0, name.mrc_port);
	ASSERT_EQ(0, setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)));
	ASSERT_EQ(0, getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &val, &vlen));
	EXPECT_EQ(1, val);
	vlen = sizeof(ti);
	ASSERT_EQ(0, getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &vlen));
	EXPECT_EQ(TCP_ESTABLISHED, ti.tcpi_state);

	afd = accept(lfd, NULL, NULL);
	ASSERT_LE(0, afd);
	ASSERT_EQ(5, send(fd, "hello", 5, 0));
	ASSERT_EQ(5, recv(afd, buf, 5, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	ASSERT_EQ(6, send(afd, "back!!", 6, 0));
	usleep(100000);
	ASSERT_EQ(0, ioctl(fd, SIOCINQ, &val));
	EXPECT_EQ(6, val);
	ASSERT_EQ(6, recv(fd, buf, 6, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "back!!", 6));
	ASSERT_EQ(0, shutdown(fd, SHUT_WR));
	EXPECT_EQ(0, recv(afd, buf, 1, 0));	/* TCP's FIN */
	close(afd);
	EXPECT_EQ(0, recv(fd, buf, 1, 0));
	close(fd);
	close(lfd);
}

/*
 * A non-blocking connect() that goes TCP stays non-blocking: EINPROGRESS,
 * then epoll (registered before connect) and poll see TCP's handshake
 * end, SO_ERROR is 0, connect() again says 0 once, then EISCONN; data
 * wakes the reader's epoll. To a port nobody serves, SO_ERROR says
 * ECONNREFUSED, as TCP's.
 */
TEST(connect_tcp_nonblocking)
{
	int family = mrc_lib_family(), lfd, fd, afd, ep;
	struct sockaddr_mrc a = mrc_addr4(family, "127.0.0.1", 4804);
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN };
	struct pollfd p;
	char b;

	ASSERT_GT(family, 0);
	lfd = tcp_listen_local(4804);
	ASSERT_LE(0, lfd);
	fd = mrc_connect_tcp_socket(family, SOCK_NONBLOCK);
	ASSERT_LE(0, fd);
	ep = epoll_create1(0);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(EINPROGRESS, errno);
	ASSERT_EQ(1, epoll_wait(ep, &ev, 1, 5000));
	EXPECT_TRUE(!!(ev.events & EPOLLOUT));
	EXPECT_FALSE(!!(ev.events & (EPOLLERR | EPOLLHUP)));
	EXPECT_EQ(0, getsockopt_int(fd, SO_ERROR));
	EXPECT_EQ(0, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(-1, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EISCONN, errno);
	EXPECT_EQ(-1, recv(fd, &b, 1, 0));
	EXPECT_EQ(EAGAIN, errno);

	afd = accept(lfd, NULL, NULL);
	ASSERT_LE(0, afd);
	ev.events = EPOLLIN;
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev));
	EXPECT_EQ(0, epoll_wait(ep, &ev, 1, 0));
	ASSERT_EQ(1, send(afd, "z", 1, 0));
	ASSERT_EQ(1, epoll_wait(ep, &ev, 1, 5000));
	ASSERT_EQ(1, recv(fd, &b, 1, 0));
	EXPECT_EQ('z', b);
	close(afd);
	close(lfd);
	close(fd);
	close(ep);

	/* nobody on the port: TCP's refusal, through SO_ERROR */
	a = mrc_addr4(family, "127.0.0.1", 4805);
	fd = mrc_connect_tcp_socket(family, SOCK_NONBLOCK);
	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(EINPROGRESS, errno);
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	ASSERT_EQ(1, poll(&p, 1, 5000));
	EXPECT_TRUE(!!(p.revents & POLLERR));
	EXPECT_EQ(ECONNREFUSED, getsockopt_int(fd, SO_ERROR));
	close(fd);
	/* and a blocking connect() returns it */
	fd = mrc_connect_tcp_socket(family, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(ECONNREFUSED, errno);
	EXPECT_EQ(0, getsockopt_int(fd, SO_ERROR));
	close(fd);
}

/*
 * The TCP socket takes the SOL_SOCKET options set on ours, before the
 * connect and after: a receive time-out set later still bounds a read.
 */
TEST(connect_tcp_socket_options)
{
	int family = mrc_lib_family(), lfd, fd, afd;
	struct sockaddr_mrc a = mrc_addr4(family, "127.0.0.1", 4806);
	struct timeval tv = { .tv_usec = 200000 };
	struct timespec t0, t1;
	long ms;
	char b;

	ASSERT_GT(family, 0);
	lfd = tcp_listen_local(4806);
	ASSERT_LE(0, lfd);
	fd = mrc_connect_tcp_socket(family, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, connect(fd, (struct sockaddr *)&a, sizeof(a)));
	afd = accept(lfd, NULL, NULL);
	ASSERT_LE(0, afd);
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-1, recv(fd, &b, 1, 0));
	EXPECT_EQ(EAGAIN, errno);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	EXPECT_LE(150, ms);
	EXPECT_GT(5000, ms);
	close(afd);
	close(fd);
	close(lfd);
}

TEST_HARNESS_MAIN
