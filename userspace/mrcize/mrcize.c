// SPDX-License-Identifier: GPL-2.0
/*
 * libmrcize.so: LD_PRELOAD shim that carries a program's TCP sockets over
 * AF_MRC. It owns the table of sockets it made (their original family and
 * the options set on them), the interposed socket calls, and the switch of
 * a socket back to plain TCP (dup3() over the same descriptor).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "addr.h"
#include "tcpopt.h"

#define MRCIZE_DEFAULT_TIMEOUT_MS 3000
#define MRCIZE_MAX_OPTS 48
#define MRCIZE_OPT_MAX 64
#define MRCIZE_MSS 1400
#define MRCIZE_CLOSE_RANGE_CLOEXEC (1U << 2)	/* linux/close_range.h */

struct mrcize_opt {
	int level, name;
	socklen_t len;
	unsigned char val[MRCIZE_OPT_MAX];
};

/* One AF_MRC socket the program believes is TCP. */
struct mrcize_sock {
	int domain;	/* AF_INET or AF_INET6, as the program asked */
	bool bound;
	socklen_t bound_len;
	struct sockaddr_storage bound_addr;
	bool connect_tcp;	/* connect() may fall back to TCP in the kernel */
	bool tcp;		/* ... and did: options go to the kernel as they are */
	int nopts;	/* every option set, replayed on a switch to TCP */
	struct mrcize_opt opts[MRCIZE_MAX_OPTS];
};

static struct {
	pthread_once_t once;
	int family;	/* live AF_MRC, or -1 */
	bool debug, fallback;
	int timeout_ms;
	struct mrcize_ports ports;
	struct mrcize_opt_ctx tcp;	/* TCP's sysctls, read once */
	int txrehash;			/* net.core.txrehash */
	char available_cc[256];
	pthread_mutex_t lock;	/* protects socks[] and nsocks */
	struct mrcize_sock **socks;	/* indexed by fd */
	int nsocks;
} mrcize = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER, .family = -1 };

/* The libc functions behind ours. */
#define MRCIZE_REAL(ret, name, ...)                                                      \
	static ret (*real_##name)(__VA_ARGS__);                                          \
	static ret (*get_##name(void))(__VA_ARGS__)                                      \
	{                                                                                \
		if (!real_##name)                                                        \
			real_##name = (ret(*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name);     \
		return real_##name;                                                      \
	}
MRCIZE_REAL(int, socket, int, int, int)
MRCIZE_REAL(int, bind, int, const struct sockaddr *, socklen_t)
MRCIZE_REAL(int, connect, int, const struct sockaddr *, socklen_t)
MRCIZE_REAL(int, listen, int, int)
MRCIZE_REAL(int, accept4, int, struct sockaddr *, socklen_t *, int)
MRCIZE_REAL(int, getsockname, int, struct sockaddr *, socklen_t *)
MRCIZE_REAL(int, getpeername, int, struct sockaddr *, socklen_t *)
MRCIZE_REAL(int, setsockopt, int, int, int, const void *, socklen_t)
MRCIZE_REAL(int, getsockopt, int, int, int, void *, socklen_t *)
MRCIZE_REAL(int, close, int)
MRCIZE_REAL(int, dup, int)
MRCIZE_REAL(int, dup2, int, int)
MRCIZE_REAL(int, dup3, int, int, int)
MRCIZE_REAL(int, fcntl, int, int, ...)
MRCIZE_REAL(int, fcntl64, int, int, ...)
MRCIZE_REAL(int, close_range, unsigned int, unsigned int, int)
MRCIZE_REAL(void, closefrom, int)
MRCIZE_REAL(ssize_t, sendfile, int, int, off_t *, size_t)
MRCIZE_REAL(ssize_t, sendfile64, int, int, off64_t *, size_t)
MRCIZE_REAL(ssize_t, splice, int, loff_t *, int, loff_t *, size_t, unsigned int)

static void mrcize_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void mrcize_log(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n, err = errno;

	if (!mrcize.debug)
		return;
	n = snprintf(line, sizeof(line), "mrcize[%d]: ", (int)getpid());
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	if (write(STDERR_FILENO, line, strlen(line)) < 0)
		(void)0;
	errno = err;
}

static bool mrcize_env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* An int sysctl under /proc/sys/net/ipv4/, or @def. */
static int mrcize_sysctl(const char *name, int def)
{
	char path[96];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/%s", name);
	f = fopen(path, "re");
	if (!f)
		return def;
	if (fscanf(f, "%d", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/* What TCP's option answers depend on, as this namespace has it. */
static void mrcize_init_tcp(void)
{
	struct mrcize_opt_ctx *t = &mrcize.tcp;
	FILE *f;

	t->keepalive_time = mrcize_sysctl("tcp_keepalive_time", 7200);
	t->keepalive_intvl = mrcize_sysctl("tcp_keepalive_intvl", 75);
	t->keepalive_probes = mrcize_sysctl("tcp_keepalive_probes", 9);
	t->syn_retries = mrcize_sysctl("tcp_syn_retries", 6);
	t->fin_timeout = mrcize_sysctl("tcp_fin_timeout", 60);
	t->fastopen = mrcize_sysctl("tcp_fastopen", 1);
	f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control", "re");
	if (f) {
		if (!fgets(mrcize.available_cc, sizeof(mrcize.available_cc), f))
			mrcize.available_cc[0] = 0;
		fclose(f);
	}
	t->available_cc = mrcize.available_cc;
	t->mss = MRCIZE_MSS;
	mrcize.txrehash = -1;	/* SO_TXREHASH's "the sysctl's value" */
}

static void mrcize_init(void)
{
	const char *path = getenv("MRCIZE_FAMILY_FILE");
	const char *v;
	FILE *f;
	int fam;

	mrcize.debug = mrcize_env_on("MRCIZE_DEBUG");
	/* Unset: fall back, as an MPTCP client falls back to TCP. */
	mrcize.fallback = !getenv("MRCIZE_FALLBACK") || mrcize_env_on("MRCIZE_FALLBACK");
	mrcize.timeout_ms = MRCIZE_DEFAULT_TIMEOUT_MS;
	mrcize_init_tcp();
	v = getenv("MRCIZE_TIMEOUT_MS");
	if (v && atoi(v) > 0)
		mrcize.timeout_ms = atoi(v);
	if (mrcize_ports_parse(getenv("MRCIZE_PORTS"), &mrcize.ports))
		mrcize_log("MRCIZE_PORTS=\"%s\" is not a port list: every port goes over MRC",
			   getenv("MRCIZE_PORTS"));
	f = fopen(path && *path ? path : MRC_FAMILY_SYSFS, "re");
	if (f) {
		if (fscanf(f, "%d", &fam) == 1 && fam > 0 && fam < 256)
			mrcize.family = fam;
		fclose(f);
	}
	if (mrcize.family < 0)
		mrcize_log("AF_MRC unavailable (mrc.ko not loaded): TCP stays TCP");
	else
		mrcize_log("AF_MRC is %d%s", mrcize.family,
			   mrcize.fallback ? ", falling back to TCP on a refused connect" : "");
}

static void mrcize_setup(void)
{
	pthread_once(&mrcize.once, mrcize_init);
}

/* Copy of the entry for @fd into @out; false if @fd is not ours. */
static bool mrcize_get(int fd, struct mrcize_sock *out)
{
	bool found = false;

	if (fd < 0)
		return false;
	pthread_mutex_lock(&mrcize.lock);
	if (fd < mrcize.nsocks && mrcize.socks[fd]) {
		if (out)
			*out = *mrcize.socks[fd];
		found = true;
	}
	pthread_mutex_unlock(&mrcize.lock);
	return found;
}

/* Put (a copy of) @s at @fd, or forget @fd when @s is NULL. */
static void mrcize_put(int fd, const struct mrcize_sock *s)
{
	struct mrcize_sock **grown, *copy = NULL;
	int n;

	if (fd < 0)
		return;
	if (s) {
		copy = malloc(sizeof(*copy));
		if (!copy)
			return;
		*copy = *s;
	}
	pthread_mutex_lock(&mrcize.lock);
	if (fd >= mrcize.nsocks && copy) {
		n = fd < 64 ? 128 : fd * 2;
		grown = realloc(mrcize.socks, (size_t)n * sizeof(*grown));
		if (!grown) {
			pthread_mutex_unlock(&mrcize.lock);
			free(copy);
			return;
		}
		memset(grown + mrcize.nsocks, 0, (size_t)(n - mrcize.nsocks) * sizeof(*grown));
		mrcize.socks = grown;
		mrcize.nsocks = n;
	}
	if (fd < mrcize.nsocks) {
		free(mrcize.socks[fd]);
		mrcize.socks[fd] = copy;
	}
	pthread_mutex_unlock(&mrcize.lock);
}

static void mrcize_opt_record(struct mrcize_sock *s, int level, int name, const void *val,
			      socklen_t len)
{
	struct mrcize_opt *o = NULL;
	int i;

	if (!val || len > MRCIZE_OPT_MAX)
		return;
	for (i = 0; i < s->nopts && !o; i++)
		if (s->opts[i].level == level && s->opts[i].name == name)
			o = &s->opts[i];
	if (!o) {
		if (s->nopts == MRCIZE_MAX_OPTS)
			return;
		o = &s->opts[s->nopts++];
	}
	o->level = level;
	o->name = name;
	o->len = len;
	memcpy(o->val, val, len);
}

static const struct mrcize_opt *mrcize_opt_find(const struct mrcize_sock *s, int level, int name)
{
	int i;

	for (i = 0; i < s->nopts; i++)
		if (s->opts[i].level == level && s->opts[i].name == name)
			return &s->opts[i];
	return NULL;
}

static const char *mrcize_fam(int domain)
{
	return domain == AF_INET6 ? "AF_INET6" : "AF_INET";
}

/*
 * Make @fd a plain TCP socket again: a new one with the same status
 * flags, options and bound address is dup3()ed over it, so the program
 * keeps its descriptor. Return: 0 or -1 with errno.
 */
static int mrcize_to_tcp(int fd, const struct mrcize_sock *s, const char *why)
{
	int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD), nfd, i, err;

	nfd = get_socket()(s->domain, SOCK_STREAM, IPPROTO_TCP);
	if (nfd < 0)
		return -1;
	for (i = 0; i < s->nopts; i++)
		if (get_setsockopt()(nfd, s->opts[i].level, s->opts[i].name, s->opts[i].val,
				     s->opts[i].len))
			mrcize_log("fd %d: TCP refuses option %d/%d: %s", fd, s->opts[i].level,
				   s->opts[i].name, strerror(errno));
	if (s->bound && get_bind()(nfd, (const struct sockaddr *)&s->bound_addr, s->bound_len))
		goto fail;
	if (fl >= 0 && fcntl(nfd, F_SETFL, fl) < 0)
		goto fail;
	if (get_dup3()(nfd, fd, fdfl >= 0 && (fdfl & FD_CLOEXEC) ? O_CLOEXEC : 0) < 0)
		goto fail;
	get_close()(nfd);
	mrcize_put(fd, NULL);
	mrcize_log("fd %d: plain TCP (%s)", fd, why);
	return 0;
fail:
	err = errno;
	get_close()(nfd);
	errno = err;
	return -1;
}

int socket(int domain, int type, int protocol)
{
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC), fd;
	struct mrcize_sock s = { .domain = domain };

	mrcize_setup();
	if ((domain == AF_INET || domain == AF_INET6) && base == SOCK_STREAM &&
	    (protocol == 0 || protocol == IPPROTO_TCP) && mrcize.family > 0) {
		fd = get_socket()(mrcize.family, type, 0);
		if (fd >= 0) {
			/* inet_create() starts a TCP socket at net.core.txrehash. */
			get_setsockopt()(fd, SOL_SOCKET, SO_TXREHASH, &mrcize.txrehash,
					 sizeof(mrcize.txrehash));
			mrcize_put(fd, &s);
			mrcize_log("fd %d: AF_MRC for a %s stream socket", fd, mrcize_fam(domain));
			return fd;
		}
		mrcize_log("socket(AF_MRC) failed (%s): plain TCP", strerror(errno));
	}
	fd = get_socket()(domain, type, protocol);
	mrcize_put(fd, NULL); /* a stale entry from a close we did not see */
	return fd;
}

/* Should an address keep @fd off MRC? Returns why, or NULL. */
static const char *mrcize_not_mrc(const struct sockaddr *sa, socklen_t len, bool bind)
{
	int port = mrcize_port(sa, len);

	if (mrcize_is_loopback(sa, len))
		return "loopback";
	if (port < 0 || (bind && port == 0))
		return NULL;
	if (!mrcize_ports_match(&mrcize.ports, port))
		return "port not in MRCIZE_PORTS";
	return NULL;
}

/*
 * Another of our sockets, of another family than @domain, bound to MRC
 * port @port: the other half of a dual-stack server (redis binds [::] and
 * 0.0.0.0 on one port). Return its descriptor, or -1.
 */
static int mrcize_port_holder(int port, int domain)
{
	const struct mrcize_sock *o;
	int fd, found = -1;

	pthread_mutex_lock(&mrcize.lock);
	for (fd = 0; fd < mrcize.nsocks && found < 0; fd++) {
		o = mrcize.socks[fd];
		if (o && o->bound && o->domain != domain &&
		    mrcize_port((const struct sockaddr *)&o->bound_addr, o->bound_len) == port)
			found = fd;
	}
	pthread_mutex_unlock(&mrcize.lock);
	return found;
}

int bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct sockaddr_mrc m;
	struct mrcize_sock s;
	const char *why;
	int err;

	if (!mrcize_get(fd, &s))
		return get_bind()(fd, sa, len);
	err = mrcize_to_mrc(sa, len, s.domain, mrcize.family, &m);
	if (err) {
		errno = -err;
		return -1;
	}
	why = mrcize_not_mrc(sa, len, true);
	if (why)
		goto tcp;
	if (!get_bind()(fd, (const struct sockaddr *)&m, sizeof(m))) {
		s.bound = true;
		s.bound_len = len < sizeof(s.bound_addr) ? len : sizeof(s.bound_addr);
		memcpy(&s.bound_addr, sa, s.bound_len);
		mrcize_put(fd, &s);
		mrcize_log("fd %d: bound on MRC port %d", fd, mrcize_port(sa, len));
		return 0;
	}
	if (errno == EADDRINUSE && mrcize_port_holder(mrcize_port(sa, len), s.domain) >= 0) {
		/* Its MRC listener takes MRC clients of both families. */
		why = "dual-stack: another socket has the port on MRC";
		goto tcp;
	}
	if (errno != EADDRNOTAVAIL)
		return -1;
	why = "not a plane address";
tcp:
	if (mrcize_to_tcp(fd, &s, why))
		return -1;
	return get_bind()(fd, sa, len);
}

/* Why the kernel took @fd to TCP (MRC_CONNECT_TCP_USED), for the log. */
static const char *mrcize_tcp_why(int why)
{
	switch (why) {
	case MRC_CONNECT_TCP_REFUSED:
		return "MRC refused";
	case MRC_CONNECT_TCP_TIMEOUT:
		return "no MRC answer in time";
	case MRC_CONNECT_TCP_UNREACHABLE:
		return "no plane routes to the peer";
	}
	return "?";
}

/*
 * Has the kernel taken @fd's connect to TCP (MRC_CONNECT_TCP)? The first
 * time it says so, the options the program set on the socket go to TCP
 * now, and from then on every option call goes to the kernel as it is.
 */
static void mrcize_check_tcp(int fd, struct mrcize_sock *s)
{
	socklen_t len = sizeof(int);
	int why = 0, i;

	if (!s->connect_tcp || s->tcp ||
	    get_getsockopt()(fd, SOL_MRC, MRC_CONNECT_TCP_USED, &why, &len) || !why)
		return;
	for (i = 0; i < s->nopts; i++)
		if (s->opts[i].level != SOL_SOCKET &&
		    get_setsockopt()(fd, s->opts[i].level, s->opts[i].name, s->opts[i].val,
				     s->opts[i].len))
			mrcize_log("fd %d: TCP refuses option %d/%d: %s", fd, s->opts[i].level,
				   s->opts[i].name, strerror(errno));
	s->tcp = true;
	mrcize_put(fd, s);
	mrcize_log("fd %d: plain TCP (fallback: %s)", fd, mrcize_tcp_why(why));
}

/*
 * Fall back to TCP (the default): the kernel connects over TCP instead
 * when the peer refuses MRC or has not answered in timeout_ms, and the
 * descriptor carries that connection (a non-blocking connect stays
 * non-blocking). Return: whether the kernel took the option.
 */
static bool mrcize_arm_fallback(int fd, struct mrcize_sock *s)
{
	unsigned int ms = (unsigned int)mrcize.timeout_ms;

	if (get_setsockopt()(fd, SOL_MRC, MRC_CONNECT_TCP, &ms, sizeof(ms))) {
		mrcize_log("fd %d: no TCP fallback (%s)", fd, strerror(errno));
		return false;
	}
	s->connect_tcp = true;
	mrcize_put(fd, s);
	return true;
}

int connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct sockaddr_mrc m;
	struct mrcize_sock s;
	const char *why;
	bool fallback;
	int r, err;

	if (!mrcize_get(fd, &s))
		return get_connect()(fd, sa, len);
	err = mrcize_to_mrc(sa, len, s.domain, mrcize.family, &m);
	if (err) {
		errno = -err;
		return -1;
	}
	why = mrcize_not_mrc(sa, len, false);
	if (why)
		goto tcp;
	/* Armed once: a connect() again (for the outcome) finds it set. */
	fallback = mrcize.fallback && (s.connect_tcp || mrcize_arm_fallback(fd, &s));
	r = get_connect()(fd, (const struct sockaddr *)&m, sizeof(m));
	if (r < 0 && errno == ENETUNREACH && !fallback) {
		why = "no plane routes to the peer";
		goto tcp;
	}
	err = errno;
	if (fallback)
		mrcize_check_tcp(fd, &s);	/* a blocking connect that went TCP */
	if ((!r || err == EINPROGRESS) && !s.tcp)
		mrcize_log("fd %d: connect%s over MRC to port %d%s", fd, r ? "ing" : "ed",
			   mrcize_port(sa, len), fallback ? ", TCP if it refuses" : "");
	errno = err;
	return r;
tcp:
	if (mrcize_to_tcp(fd, &s, why))
		return -1;
	return get_connect()(fd, sa, len);
}

/*
 * An mrcized listener takes TCP clients too (MRC_LISTEN_TCP): the kernel
 * opens a TCP listener on the same address and port, IPv6-only if the
 * program asked for IPV6_V6ONLY.
 */
int listen(int fd, int backlog)
{
	const struct mrcize_opt *o;
	struct mrcize_sock s;
	unsigned int flags = MRC_LISTEN_TCP_ON;
	int v6only = 0;
	bool tcp;

	if (!mrcize_get(fd, &s))
		return get_listen()(fd, backlog);
	o = mrcize_opt_find(&s, IPPROTO_IPV6, IPV6_V6ONLY);
	if (o && o->len >= sizeof(int))
		memcpy(&v6only, o->val, sizeof(v6only));
	if (s.domain == AF_INET6 && v6only)
		flags |= MRC_LISTEN_TCP_V6ONLY;
	tcp = !get_setsockopt()(fd, SOL_MRC, MRC_LISTEN_TCP, &flags, sizeof(flags));
	if (!tcp)
		mrcize_log("fd %d: no TCP clients (%s)", fd, strerror(errno));
	if (get_listen()(fd, backlog))
		return -1;
	mrcize_log("fd %d: listening for MRC%s clients", fd, tcp ? " and TCP" : "");
	return 0;
}

static void mrcize_accepted(int lfd, const struct mrcize_sock *ls, int fd,
			    const struct sockaddr_mrc *m, struct sockaddr *sa, socklen_t *len)
{
	struct mrcize_sock s = { .domain = ls->domain };
	socklen_t tlen = sizeof(int);
	struct sockaddr_storage ss;
	int i, txrehash;

	/* TCP's accepted sockets inherit the listener's TCP options. */
	for (i = 0; i < ls->nopts; i++)
		if (ls->opts[i].level != SOL_SOCKET)
			s.opts[s.nopts++] = ls->opts[i];
	/* sk_clone_lock() copies sk_txrehash too; AF_MRC's children start at 0. */
	if (!get_getsockopt()(lfd, SOL_SOCKET, SO_TXREHASH, &txrehash, &tlen))
		get_setsockopt()(fd, SOL_SOCKET, SO_TXREHASH, &txrehash, sizeof(txrehash));
	mrcize_put(fd, &s);
	mrcize_copy_out(&ss, mrcize_from_mrc(m, s.domain, &ss), sa, len);
	mrcize_log("fd %d: accepted over MRC on fd %d", fd, lfd);
}

/* A TCP client of an mrcized listener: a plain TCP socket, kept as is. */
static void mrcize_accepted_tcp(int lfd, const struct mrcize_sock *ls, int fd,
				const struct sockaddr_storage *ss, socklen_t sslen,
				struct sockaddr *sa, socklen_t *len)
{
	int i;

	mrcize_put(fd, NULL);
	/*
	 * The options the program set on its listener, which a TCP child
	 * inherits; the kernel's TCP listener never saw them.
	 */
	for (i = 0; i < ls->nopts; i++)
		if ((ls->opts[i].level == IPPROTO_TCP || ls->opts[i].level == SOL_SOCKET) &&
		    get_setsockopt()(fd, ls->opts[i].level, ls->opts[i].name, ls->opts[i].val,
				     ls->opts[i].len))
			mrcize_log("fd %d: TCP refuses option %d/%d", fd, ls->opts[i].level,
				   ls->opts[i].name);
	mrcize_copy_out(ss, sslen, sa, len);
	mrcize_log("fd %d: accepted a TCP client on fd %d", fd, lfd);
}

int accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sslen = sizeof(ss);
	struct mrcize_sock ls;
	int nfd;

	if (!mrcize_get(fd, &ls)) {
		nfd = get_accept4()(fd, sa, len, flags);
		mrcize_put(nfd, NULL);
		return nfd;
	}
	nfd = get_accept4()(fd, (struct sockaddr *)&ss, &sslen, flags);
	if (nfd < 0)
		return nfd;
	if (ss.ss_family == mrcize.family)
		mrcize_accepted(fd, &ls, nfd, (const struct sockaddr_mrc *)&ss, sa, len);
	else
		mrcize_accepted_tcp(fd, &ls, nfd, &ss, sslen, sa, len);
	return nfd;
}

int accept(int fd, struct sockaddr *sa, socklen_t *len)
{
	return accept4(fd, sa, len, 0);
}

static int mrcize_name(int fd, struct sockaddr *sa, socklen_t *len, bool peer)
{
	int (*real)(int, struct sockaddr *, socklen_t *) = peer ? get_getpeername() :
								   get_getsockname();
	struct sockaddr_mrc m = { 0 };
	socklen_t mlen = sizeof(m);
	struct sockaddr_storage ss;
	struct mrcize_sock s;

	if (!mrcize_get(fd, &s))
		return real(fd, sa, len);
	if (!len) {
		errno = EFAULT;
		return -1;
	}
	if (real(fd, (struct sockaddr *)&m, &mlen))
		return -1;
	mrcize_copy_out(&ss, mrcize_from_mrc(&m, s.domain, &ss), sa, len);
	return 0;
}

int getsockname(int fd, struct sockaddr *sa, socklen_t *len)
{
	return mrcize_name(fd, sa, len, false);
}

int getpeername(int fd, struct sockaddr *sa, socklen_t *len)
{
	return mrcize_name(fd, sa, len, true);
}

/* IP-level options that mean nothing to MRC: accepted, kept. */
static bool mrcize_ip_ignored(int level, int name)
{
	switch (level) {
	case IPPROTO_IP:
		return name == IP_TOS || name == IP_TTL || name == IP_FREEBIND ||
		       name == IP_BIND_ADDRESS_NO_PORT;
	case IPPROTO_IPV6:
		return name == IPV6_V6ONLY || name == IPV6_TCLASS || name == IPV6_UNICAST_HOPS ||
		       name == IPV6_FREEBIND;
	}
	return false;
}

/* The TCP state @fd would be in, and what else TCP's answers read. */
static void mrcize_opt_ctx_of(int fd, const struct mrcize_sock *s, int name,
			      struct mrcize_opt_ctx *ctx)
{
	const struct mrcize_opt *o = mrcize_opt_find(s, IPPROTO_TCP, name);
	struct sockaddr_mrc m;
	socklen_t len = sizeof(int), mlen = sizeof(m);
	int v = 0;

	*ctx = mrcize.tcp;
	ctx->state = MRCIZE_TCP_CLOSE;
	if (!get_getsockopt()(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &len) && v)
		ctx->state = MRCIZE_TCP_LISTEN;
	else if (!get_getpeername()(fd, (struct sockaddr *)&m, &mlen))
		ctx->state = MRCIZE_TCP_ESTABLISHED;
	len = sizeof(int);
	if (get_getsockopt()(fd, SOL_SOCKET, SO_RCVBUF, &ctx->rcvbuf, &len))
		ctx->rcvbuf = 0;
	ctx->kept = o ? o->val : NULL;
	ctx->kept_len = o ? o->len : 0;
}

/* TCP_USER_TIMEOUT becomes MRC's (TCP's 0, "the default", MRC's default). */
static int mrcize_set_user_timeout(int fd, const void *val)
{
	unsigned int ms;

	memcpy(&ms, val, sizeof(ms));
	ms = ms ? ms : 30000;
	return get_setsockopt()(fd, SOL_MRC, MRC_USER_TIMEOUT, &ms, sizeof(ms));
}

static int mrcize_tcp_set(int fd, const struct mrcize_sock *s, int name, const void *val,
			  socklen_t len)
{
	struct mrcize_opt_ctx ctx;
	int r;

	mrcize_opt_ctx_of(fd, s, name, &ctx);
	r = mrcize_tcp_setsockopt(&ctx, name, val, len);
	if (r) {
		errno = -r;
		return -1;
	}
	if (name == TCP_USER_TIMEOUT)
		return mrcize_set_user_timeout(fd, val);
	mrcize_log("fd %d: TCP option %d kept", fd, name);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct mrcize_sock s;
	int r;

	if (!mrcize_get(fd, &s))
		return get_setsockopt()(fd, level, name, val, len);
	mrcize_check_tcp(fd, &s);
	if (s.tcp && !(level == SOL_SOCKET && name == SO_REUSEPORT))
		return get_setsockopt()(fd, level, name, val, len);
	if (level == IPPROTO_TCP) {
		r = mrcize_tcp_set(fd, &s, name, val, len);
	} else if (level == SOL_SOCKET && name == SO_REUSEPORT) {
		/* AF_MRC refuses it (EOPNOTSUPP); servers set it by habit. */
		if (len < sizeof(int)) {
			errno = EINVAL;
			return -1;
		}
		r = 0;
		mrcize_log("fd %d: SO_REUSEPORT kept; MRC has no reuseport groups", fd);
	} else if (level == SOL_SOCKET && name == SO_ZEROCOPY) {
		/* 6.1 refuses SO_ZEROCOPY outside TCP: AF_MRC's own switch */
		r = get_setsockopt()(fd, SOL_MRC, MRC_ZEROCOPY, val, len);
	} else if (mrcize_ip_ignored(level, name)) {
		if (!val || len < sizeof(int)) {
			errno = EINVAL;
			return -1;
		}
		r = 0;
		mrcize_log("fd %d: option %d/%d accepted and ignored", fd, level, name);
	} else {
		r = get_setsockopt()(fd, level, name, val, len);
	}
	if (!r && level != SOL_MRC) {
		mrcize_opt_record(&s, level, name, val, len);
		mrcize_put(fd, &s);
	}
	return r;
}

static int mrcize_give(void *val, socklen_t *len, const void *src, socklen_t n)
{
	if (!val || !len || (int)*len < 0) {
		errno = !len ? EFAULT : EINVAL;
		return -1;
	}
	if (*len < n)
		n = *len;
	memcpy(val, src, n);
	*len = n;
	return 0;
}

/* TCP_INFO from the connection's MRC counters, for programs like iperf3. */
static int mrcize_tcp_info_get(int fd, void *val, socklen_t *len)
{
	struct mrcize_tcp_info_src src = { .state = MRCIZE_TCP_CLOSE };
	struct mrc_conn_info ci = { 0 };
	socklen_t clen = sizeof(ci), slen = sizeof(int);
	int sol = 0, r;

	if (!get_getsockopt()(fd, SOL_MRC, MRC_CONN_INFO, &ci, &clen)) {
		src.state = MRCIZE_TCP_ESTABLISHED;
		src.rto_us = ci.rto_us;
		src.srtt_us = ci.srtt_us;
		src.mss = MRCIZE_MSS;
		src.cwnd_bytes = ci.cwnd;
		src.retx_pkts = ci.retx_pkts;
		src.tx_bytes = ci.tx_data_bytes;
		src.rx_bytes = ci.rx_data_bytes;
	} else if (!get_getsockopt()(fd, SOL_SOCKET, SO_ACCEPTCONN, &sol, &slen) && sol) {
		src.state = MRCIZE_TCP_LISTEN;
	}
	r = mrcize_tcp_info(&src, val, len);
	if (r) {
		errno = -r;
		return -1;
	}
	return 0;
}

/* SO_PEERNAME as sk_getsockopt() answers it, in the program's family. */
static int mrcize_peername_opt(int fd, void *val, socklen_t *len)
{
	struct sockaddr_storage ss;
	socklen_t n = sizeof(ss);

	if (!len || (int)*len < 0) {
		errno = !len ? EFAULT : EINVAL;
		return -1;
	}
	if (getpeername(fd, (struct sockaddr *)&ss, &n)) {
		errno = ENOTCONN;
		return -1;
	}
	if (n < *len) {
		errno = EINVAL;
		return -1;
	}
	if (*len && !val) {
		errno = EFAULT;
		return -1;
	}
	memcpy(val, &ss, *len);
	return 0;
}

/*
 * What a new TCP socket of @domain reads for @name: for answers that are
 * the namespace's, not the socket's (the Fast Open key, before the
 * program sets one of its own).
 */
static int mrcize_tcp_scratch_get(int domain, int name, void *val, socklen_t *len)
{
	int fd = get_socket()(domain, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP), r, err;

	if (fd < 0)
		return -1;
	r = get_getsockopt()(fd, IPPROTO_TCP, name, val, len);
	err = errno;
	get_close()(fd);
	errno = err;
	return r;
}

static int mrcize_tcp_get(int fd, const struct mrcize_sock *s, int name, void *val,
			  socklen_t *len)
{
	struct mrcize_opt_ctx ctx;
	int r;

	if (name == TCP_INFO)
		return mrcize_tcp_info_get(fd, val, len);
	if (name == TCP_FASTOPEN_KEY && !mrcize_opt_find(s, IPPROTO_TCP, name))
		return mrcize_tcp_scratch_get(s->domain, name, val, len);
	mrcize_opt_ctx_of(fd, s, name, &ctx);
	r = mrcize_tcp_getsockopt(&ctx, name, val, len);
	if (r) {
		errno = -r;
		return -1;
	}
	return 0;
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	const struct mrcize_opt *o;
	struct mrcize_sock s;
	int v = 0;

	if (!mrcize_get(fd, &s))
		return get_getsockopt()(fd, level, name, val, len);
	mrcize_check_tcp(fd, &s);
	if (level == SOL_SOCKET && (name == SO_DOMAIN || name == SO_PROTOCOL)) {
		v = name == SO_DOMAIN ? s.domain : IPPROTO_TCP;
		return mrcize_give(val, len, &v, sizeof(v));
	}
	if (level == SOL_SOCKET && name == SO_PEERNAME)
		return mrcize_peername_opt(fd, val, len);
	if (level == SOL_SOCKET && name == SO_REUSEPORT) {
		o = mrcize_opt_find(&s, level, name);
		if (o && o->len >= sizeof(int))
			memcpy(&v, o->val, sizeof(v));
		v = !!v;
		return mrcize_give(val, len, &v, sizeof(v));
	}
	if (level == IPPROTO_TCP && !s.tcp)
		return mrcize_tcp_get(fd, &s, name, val, len);
	if (s.tcp || !mrcize_ip_ignored(level, name))
		return get_getsockopt()(fd, level, name, val, len);
	o = mrcize_opt_find(&s, level, name);
	if (o)
		return mrcize_give(val, len, o->val, o->len);
	return mrcize_give(val, len, &v, sizeof(v));
}

int close(int fd)
{
	mrcize_put(fd, NULL);
	return get_close()(fd);
}

static int mrcize_dup_entry(int oldfd, int newfd)
{
	struct mrcize_sock s;

	if (newfd >= 0 && newfd != oldfd)
		mrcize_put(newfd, mrcize_get(oldfd, &s) ? &s : NULL);
	return newfd;
}

int dup(int fd)
{
	return mrcize_dup_entry(fd, get_dup()(fd));
}

int dup2(int fd, int fd2)
{
	return mrcize_dup_entry(fd, get_dup2()(fd, fd2));
}

int dup3(int fd, int fd2, int flags)
{
	return mrcize_dup_entry(fd, get_dup3()(fd, fd2, flags));
}

/*
 * fcntl() takes an int, a long or a pointer as its third argument; like
 * glibc's own wrapper we pass on a pointer-sized one (on x86_64 and the
 * other LP64 ABIs an int travels in the same register). Only F_DUPFD and
 * F_DUPFD_CLOEXEC concern us: Python's socket.dup() is one.
 */
static int mrcize_fcntl(int (*real)(int, int, ...), int fd, int cmd, va_list ap)
{
	void *arg = va_arg(ap, void *);
	int r = real(fd, cmd, arg);

	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		mrcize_dup_entry(fd, r);
	return r;
}

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	int r;

	va_start(ap, cmd);
	r = mrcize_fcntl(get_fcntl(), fd, cmd, ap);
	va_end(ap);
	return r;
}

int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	int r;

	va_start(ap, cmd);
	r = mrcize_fcntl(get_fcntl64() ? get_fcntl64() : get_fcntl(), fd, cmd, ap);
	va_end(ap);
	return r;
}

/* Forget the descriptors from @first to @last (inclusive). */
static void mrcize_forget_range(unsigned int first, unsigned int last)
{
	unsigned int fd;

	pthread_mutex_lock(&mrcize.lock);
	for (fd = first; fd <= last && fd < (unsigned int)mrcize.nsocks; fd++) {
		free(mrcize.socks[fd]);
		mrcize.socks[fd] = NULL;
	}
	pthread_mutex_unlock(&mrcize.lock);
}

int close_range(unsigned int first, unsigned int last, int flags)
{
	int r = get_close_range()(first, last, flags);

	/* CLOSE_RANGE_CLOEXEC only marks them; they stay open until exec. */
	if (!r && !(flags & MRCIZE_CLOSE_RANGE_CLOEXEC))
		mrcize_forget_range(first, last);
	return r;
}

void closefrom(int lowfd)
{
	get_closefrom()(lowfd);
	if (lowfd >= 0)
		mrcize_forget_range((unsigned int)lowfd, ~0U);
}

static bool mrcize_unsupported(int err)
{
	return err == EINVAL || err == EOPNOTSUPP || err == ENOSYS;
}

ssize_t sendfile(int out, int in, off_t *off, size_t count)
{
	ssize_t r = get_sendfile()(out, in, off, count);

	if (r < 0 && mrcize_unsupported(errno) && mrcize_get(out, NULL)) {
		mrcize_log("fd %d: sendfile refused (%s): read+write", out, strerror(errno));
		return mrcize_copy_file(out, in, off, count);
	}
	return r;
}

ssize_t sendfile64(int out, int in, off64_t *off, size_t count)
{
	ssize_t r = get_sendfile64()(out, in, off, count);

	if (r < 0 && mrcize_unsupported(errno) && mrcize_get(out, NULL)) {
		mrcize_log("fd %d: sendfile refused (%s): read+write", out, strerror(errno));
		return mrcize_copy_file(out, in, (off_t *)off, count);
	}
	return r;
}

ssize_t splice(int in, loff_t *off_in, int out, loff_t *off_out, size_t len, unsigned int flags)
{
	ssize_t r = get_splice()(in, off_in, out, off_out, len, flags);

	if (r < 0 && mrcize_unsupported(errno) && !off_in && !off_out &&
	    (mrcize_get(in, NULL) || mrcize_get(out, NULL))) {
		mrcize_log("splice %d -> %d refused (%s): read+write", in, out, strerror(errno));
		return mrcize_copy_stream(out, in, len, flags & SPLICE_F_NONBLOCK);
	}
	return r;
}
