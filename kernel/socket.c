// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_MRC socket family: socket creation for SOCK_STREAM and
 * SOCK_SEQPACKET, address validation and the proto_ops tables. Calls that
 * need a connection answer like an unconnected TCP socket until the data
 * path supplies one.
 */
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/socket.h>
#include <net/sock.h>

#include "protocol.h"

struct proto mrc_prot = {
	.name		= "MRC",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct mrc_sock),
};

/*
 * Check an address handed to bind() or connect().
 * Return: 0 when @uaddr is a well-formed struct sockaddr_mrc.
 */
static int mrc_addr_validate(const struct sockaddr *uaddr, int addr_len)
{
	const struct sockaddr_mrc *addr = (const struct sockaddr_mrc *)uaddr;

	if (addr_len < (int)sizeof(*addr))
		return -EINVAL;
	if (addr->mrc_family != mrc_family)
		return -EAFNOSUPPORT;
	if (addr->mrc_addr_family != AF_INET &&
	    addr->mrc_addr_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (addr->mrc_reserved)
		return -EINVAL;
	return 0;
}

static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!sk)
		return 0;

	lock_sock(sk);
	sk->sk_shutdown = SHUTDOWN_MASK;
	sock_orphan(sk);
	release_sock(sk);

	mrc_mib_inc(sock_net(sk), MRC_MIB_SOCKRELEASE);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

/* Port ownership arrives with the data path; the address is checked now. */
static int mrc_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	int err = mrc_addr_validate(uaddr, addr_len);

	return err ? err : -EOPNOTSUPP;
}

static int mrc_connect(struct socket *sock, struct sockaddr *uaddr,
		       int addr_len, int flags)
{
	int err = mrc_addr_validate(uaddr, addr_len);

	return err ? err : -EOPNOTSUPP;
}

static int mrc_listen(struct socket *sock, int backlog)
{
	return -EOPNOTSUPP;
}

/* Like TCP: accept() on a socket that is not listening. */
static int mrc_accept(struct socket *sock, struct socket *newsock, int flags,
		      bool kern)
{
	return -EINVAL;
}

static int mrc_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_mrc *addr = (struct sockaddr_mrc *)uaddr;

	if (peer)
		return -ENOTCONN;

	memset(addr, 0, sizeof(*addr));
	addr->mrc_family = mrc_family;
	return sizeof(*addr);
}

/* An unconnected socket reports hang-up and writable, as tcp_poll() does. */
static __poll_t mrc_poll(struct file *file, struct socket *sock,
			 struct poll_table_struct *wait)
{
	sock_poll_wait(file, sock, wait);
	return EPOLLOUT | EPOLLWRNORM | EPOLLHUP;
}

static int mrc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static int mrc_shutdown(struct socket *sock, int how)
{
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	return -ENOTCONN;
}

static int mrc_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	return -ENOPROTOOPT;
}

static int mrc_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	return -ENOPROTOOPT;
}

static int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	return -ENOTCONN;
}

static int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	return -ENOTCONN;
}

/* .family is filled in by mrc_socket_init() before registration. */
#define MRC_PROTO_OPS_COMMON				\
	.owner		= THIS_MODULE,			\
	.release	= mrc_release,			\
	.bind		= mrc_bind,			\
	.connect	= mrc_connect,			\
	.socketpair	= sock_no_socketpair,		\
	.accept		= mrc_accept,			\
	.getname	= mrc_getname,			\
	.poll		= mrc_poll,			\
	.ioctl		= mrc_ioctl,			\
	.listen		= mrc_listen,			\
	.shutdown	= mrc_shutdown,			\
	.setsockopt	= mrc_setsockopt,		\
	.getsockopt	= mrc_getsockopt,		\
	.sendmsg	= mrc_sendmsg,			\
	.recvmsg	= mrc_recvmsg,			\
	.mmap		= sock_no_mmap,			\
	.sendpage	= sock_no_sendpage

static struct proto_ops mrc_stream_ops __ro_after_init = {
	MRC_PROTO_OPS_COMMON,
};

static struct proto_ops mrc_seqpacket_ops __ro_after_init = {
	MRC_PROTO_OPS_COMMON,
};

static int mrc_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	const struct proto_ops *ops;
	struct sock *sk;

	switch (sock->type) {
	case SOCK_STREAM:
		ops = &mrc_stream_ops;
		break;
	case SOCK_SEQPACKET:
		ops = &mrc_seqpacket_ops;
		break;
	default:
		mrc_mib_inc(net, MRC_MIB_SOCKREJECT);
		return -ESOCKTNOSUPPORT;
	}
	if (protocol != MRC_PROTO_DEFAULT) {
		mrc_mib_inc(net, MRC_MIB_SOCKREJECT);
		return -EPROTONOSUPPORT;
	}

	sk = sk_alloc(net, mrc_family, GFP_KERNEL, &mrc_prot, kern);
	if (!sk)
		return -ENOMEM;

	sock->ops = ops;
	sock->state = SS_UNCONNECTED;
	sock_init_data(sock, sk);
	sk->sk_protocol = protocol;

	sock_prot_inuse_add(net, &mrc_prot, 1);
	mrc_mib_inc(net, MRC_MIB_SOCKCREATE);
	return 0;
}

static struct net_proto_family mrc_family_ops __ro_after_init = {
	.create	= mrc_create,
	.owner	= THIS_MODULE,
};

int mrc_socket_init(void)
{
	int err;

	mrc_stream_ops.family = mrc_family;
	mrc_seqpacket_ops.family = mrc_family;
	mrc_family_ops.family = mrc_family;

	err = proto_register(&mrc_prot, 1);
	if (err)
		return err;

	err = sock_register(&mrc_family_ops);
	if (err) {
		pr_err("address family %d is taken (%d); load with family=<free number below %d>\n",
		       mrc_family, err, AF_MAX);
		goto err_proto;
	}
	return 0;

err_proto:
	proto_unregister(&mrc_prot);
	return err;
}

void mrc_socket_exit(void)
{
	sock_unregister(mrc_family);
	proto_unregister(&mrc_prot);
}
