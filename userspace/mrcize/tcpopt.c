// SPDX-License-Identifier: GPL-2.0
/*
 * IPPROTO_TCP and SOL_SOCKET options of an mrcized socket, answered as
 * Linux 6.1's TCP answers them (net/ipv4/tcp.c, net/core/sock.c): see
 * tcpopt.h. The table below is also mrcize(1)'s list; a host test checks
 * that it names every option of the 6.1 headers.
 */
#include <errno.h>
#include <linux/tcp.h>	/* 6.1's struct tcp_info, not glibc's shorter one */
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tcpopt.h"

#define TCP_MIN_MSS 88
#define TCP_MAX_WINDOW 32767
#define TCP_MAX_KEEPIDLE 32767
#define TCP_MAX_KEEPINTVL 32767
#define TCP_MAX_KEEPCNT 127
#define TCP_MAX_SYNCNT 127
#define TCP_FIN_TIMEOUT_MAX_SECS 120
#define TCP_CA_NAME_MAX 16
#define TCP_ULP_NAME_MAX 16
#define TCP_FO_KEY_LEN 16
#define TFO_CLIENT_ENABLE 1
/* SOCK_MIN_RCVBUF / 2 on 6.1 x86_64: (2048 + sizeof(struct sk_buff)) / 2 */
#define TCP_MIN_WINDOW_CLAMP 1140
/* offsetofend(struct tcp_zerocopy_receive, length) */
#define TCP_ZC_MIN_LEN 12
#define TCP_CMSG_TS 2		/* include/net/tcp.h: the one valid msg_flags bit */
#define TCP_PAGE_SIZE 4096
/* tcpi_state: include/net/tcp_states.h */
#define TCP_STATE_ESTABLISHED 1
#define TCP_STATE_CLOSE 7
#define TCP_STATE_LISTEN 10

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TCP_OPT(n, h, text) { IPPROTO_TCP, n, #n, MRCIZE_OPT_##h, text }
#define SO_OPT(n, h, text) { SOL_SOCKET, n, #n, MRCIZE_OPT_##h, text }
#define SO_KERNEL(n) { SOL_SOCKET, n, #n, MRCIZE_OPT_KERNEL, NULL }

static const struct mrcize_opt_desc mrcize_opts[] = {
	TCP_OPT(TCP_NODELAY, KEPT, "kept; no effect on how MRC sends"),
	TCP_OPT(TCP_MAXSEG, MAPPED, "connected: the payload of one MRC DATA packet"),
	TCP_OPT(TCP_CORK, KEPT, "kept; no effect on how MRC sends"),
	TCP_OPT(TCP_KEEPIDLE, KEPT, "kept; MRC's liveness is its user timeout"),
	TCP_OPT(TCP_KEEPINTVL, KEPT, "kept"),
	TCP_OPT(TCP_KEEPCNT, KEPT, "kept"),
	TCP_OPT(TCP_SYNCNT, KEPT, "kept"),
	TCP_OPT(TCP_LINGER2, KEPT, "kept"),
	TCP_OPT(TCP_DEFER_ACCEPT, KEPT, "kept, rounded as TCP rounds it; accept() does not wait"),
	TCP_OPT(TCP_WINDOW_CLAMP, KEPT, "kept; connected and never set: half of SO_RCVBUF"),
	TCP_OPT(TCP_INFO, MAPPED, "from MRC_CONN_INFO: state, RTT, RTO, window, retransmits"),
	TCP_OPT(TCP_QUICKACK, KEPT, "kept; MRC acknowledges on its own schedule"),
	TCP_OPT(TCP_CONGESTION, MAPPED, "reads \"" MRCIZE_CC_NAME "\"; a name TCP knows is accepted and ignored"),
	TCP_OPT(TCP_MD5SIG, REFUSED, "a key: ENOPROTOOPT, as TCP without CONFIG_TCP_MD5SIG"),
	TCP_OPT(TCP_THIN_LINEAR_TIMEOUTS, KEPT, "kept"),
	TCP_OPT(TCP_THIN_DUPACK, CONST, "reads 0, as TCP"),
	TCP_OPT(TCP_USER_TIMEOUT, MAPPED, "sets MRC_USER_TIMEOUT (0: MRC's default)"),
	TCP_OPT(TCP_REPAIR, REFUSED, "EPERM on set, as TCP without CAP_NET_ADMIN; reads 0"),
	TCP_OPT(TCP_REPAIR_QUEUE, REFUSED, "as TCP outside repair mode"),
	TCP_OPT(TCP_QUEUE_SEQ, REFUSED, "as TCP outside repair mode"),
	TCP_OPT(TCP_REPAIR_OPTIONS, REFUSED, "as TCP outside repair mode"),
	TCP_OPT(TCP_FASTOPEN, KEPT, "kept; MRC's handshake takes no data"),
	TCP_OPT(TCP_TIMESTAMP, CONST, "reads a millisecond clock; EPERM on set, as TCP outside repair mode"),
	TCP_OPT(TCP_NOTSENT_LOWAT, KEPT, "kept"),
	TCP_OPT(TCP_CC_INFO, CONST, "reads nothing (length 0), as TCP's cubic"),
	TCP_OPT(TCP_SAVE_SYN, KEPT, "kept; TCP_SAVED_SYN stays empty"),
	TCP_OPT(TCP_SAVED_SYN, CONST, "reads nothing (length 0): no TCP SYN was received"),
	TCP_OPT(TCP_REPAIR_WINDOW, REFUSED, "as TCP outside repair mode"),
	TCP_OPT(TCP_FASTOPEN_CONNECT, KEPT, "kept; connect() completes as without it"),
	TCP_OPT(TCP_ULP, REFUSED, "reads no ULP; ENOENT on set: kTLS and other ULPs need TCP"),
	TCP_OPT(TCP_MD5SIG_EXT, REFUSED, "a key: ENOPROTOOPT, as TCP without CONFIG_TCP_MD5SIG"),
	TCP_OPT(TCP_FASTOPEN_KEY, KEPT, "kept; never set: the namespace's key, as TCP reads it"),
	TCP_OPT(TCP_FASTOPEN_NO_COOKIE, KEPT, "kept"),
	TCP_OPT(TCP_ZEROCOPY_RECEIVE, CONST, "TCP's checks, then nothing to map: an AF_MRC socket cannot be mapped"),
	TCP_OPT(TCP_INQ, KEPT, "kept; no TCP_CM_INQ message comes with reads"),
	TCP_OPT(TCP_TX_DELAY, KEPT, "kept"),

	SO_KERNEL(SO_DEBUG),
	SO_KERNEL(SO_REUSEADDR),
	SO_OPT(SO_REUSEPORT, KEPT, "kept (AF_MRC refuses it); a second listener on the port still gets EADDRINUSE"),
	SO_KERNEL(SO_TYPE),
	SO_KERNEL(SO_ERROR),
	SO_KERNEL(SO_DONTROUTE),
	SO_KERNEL(SO_BROADCAST),
	SO_KERNEL(SO_SNDBUF),
	SO_KERNEL(SO_RCVBUF),
	SO_KERNEL(SO_SNDBUFFORCE),
	SO_KERNEL(SO_RCVBUFFORCE),
	SO_KERNEL(SO_KEEPALIVE),
	SO_KERNEL(SO_OOBINLINE),
	SO_KERNEL(SO_NO_CHECK),
	SO_KERNEL(SO_PRIORITY),
	SO_KERNEL(SO_LINGER),
	SO_KERNEL(SO_BSDCOMPAT),
	SO_KERNEL(SO_PASSCRED),
	SO_KERNEL(SO_PEERCRED),
	SO_KERNEL(SO_RCVLOWAT),
	SO_KERNEL(SO_SNDLOWAT),
	SO_KERNEL(SO_RCVTIMEO_OLD),
	SO_KERNEL(SO_SNDTIMEO_OLD),
	SO_KERNEL(SO_SECURITY_AUTHENTICATION),
	SO_KERNEL(SO_SECURITY_ENCRYPTION_TRANSPORT),
	SO_KERNEL(SO_SECURITY_ENCRYPTION_NETWORK),
	SO_KERNEL(SO_BINDTODEVICE),
	SO_KERNEL(SO_ATTACH_FILTER),
	SO_KERNEL(SO_DETACH_FILTER),
	SO_OPT(SO_PEERNAME, MAPPED, "the peer's address in the program's family"),
	SO_KERNEL(SO_TIMESTAMP_OLD),
	SO_KERNEL(SO_ACCEPTCONN),
	SO_KERNEL(SO_PEERSEC),
	SO_KERNEL(SO_PASSSEC),
	SO_KERNEL(SO_TIMESTAMPNS_OLD),
	SO_KERNEL(SO_MARK),
	SO_KERNEL(SO_TIMESTAMPING_OLD),
	SO_OPT(SO_PROTOCOL, MAPPED, "IPPROTO_TCP"),
	SO_OPT(SO_DOMAIN, MAPPED, "the family the program asked for"),
	SO_KERNEL(SO_RXQ_OVFL),
	SO_KERNEL(SO_WIFI_STATUS),
	SO_KERNEL(SO_PEEK_OFF),
	SO_KERNEL(SO_NOFCS),
	SO_KERNEL(SO_LOCK_FILTER),
	SO_KERNEL(SO_SELECT_ERR_QUEUE),
	SO_KERNEL(SO_BUSY_POLL),
	SO_KERNEL(SO_MAX_PACING_RATE),
	SO_KERNEL(SO_BPF_EXTENSIONS),
	SO_KERNEL(SO_INCOMING_CPU),
	SO_KERNEL(SO_ATTACH_BPF),
	SO_KERNEL(SO_ATTACH_REUSEPORT_CBPF),
	SO_KERNEL(SO_ATTACH_REUSEPORT_EBPF),
	SO_KERNEL(SO_CNX_ADVICE),
	SO_KERNEL(SO_MEMINFO),
	SO_KERNEL(SO_INCOMING_NAPI_ID),
	SO_KERNEL(SO_COOKIE),
	SO_KERNEL(SO_PEERGROUPS),
	SO_OPT(SO_ZEROCOPY, MAPPED, "sets MRC_ZEROCOPY: MSG_ZEROCOPY with TCP's completions"),
	SO_KERNEL(SO_TXTIME),
	SO_KERNEL(SO_BINDTOIFINDEX),
	SO_KERNEL(SO_TIMESTAMP_NEW),
	SO_KERNEL(SO_TIMESTAMPNS_NEW),
	SO_KERNEL(SO_TIMESTAMPING_NEW),
	SO_KERNEL(SO_RCVTIMEO_NEW),
	SO_KERNEL(SO_SNDTIMEO_NEW),
	SO_KERNEL(SO_DETACH_REUSEPORT_BPF),
	SO_KERNEL(SO_PREFER_BUSY_POLL),
	SO_KERNEL(SO_BUSY_POLL_BUDGET),
	SO_KERNEL(SO_NETNS_COOKIE),
	SO_KERNEL(SO_BUF_LOCK),
	SO_KERNEL(SO_RESERVE_MEM),
	SO_OPT(SO_TXREHASH, MAPPED, "starts at net.core.txrehash, as TCP's"),
	SO_KERNEL(SO_RCVMARK),
};

const struct mrcize_opt_desc *mrcize_opt_table(size_t *n)
{
	*n = ARRAY_SIZE(mrcize_opts);
	return mrcize_opts;
}

const struct mrcize_opt_desc *mrcize_opt_find_desc(int level, int name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mrcize_opts); i++)
		if (mrcize_opts[i].level == level && mrcize_opts[i].name == name)
			return &mrcize_opts[i];
	return NULL;
}

/* net/ipv4/tcp.c's secs_to_retrans() and retrans_to_secs(), 1 s to 120 s. */
static int mrcize_secs_to_retrans(int secs)
{
	int res = 0, timeout = 1, period = 1;

	if (secs <= 0)
		return 0;
	res = 1;
	while (secs > period && res < 255) {
		res++;
		timeout = timeout * 2 > 120 ? 120 : timeout * 2;
		period += timeout;
	}
	return res;
}

static int mrcize_retrans_to_secs(int retrans)
{
	int timeout = 1, period;

	if (retrans <= 0)
		return 0;
	period = timeout;
	while (--retrans) {
		timeout = timeout * 2 > 120 ? 120 : timeout * 2;
		period += timeout;
	}
	return period;
}

int mrcize_defer_accept_secs(int secs)
{
	return mrcize_retrans_to_secs(mrcize_secs_to_retrans(secs));
}

/* Is @name (up to @len bytes, not terminated) a congestion control TCP has? */
static bool mrcize_cc_known(const struct mrcize_opt_ctx *ctx, const char *val, socklen_t len)
{
	char name[TCP_CA_NAME_MAX] = { 0 };
	const char *p = ctx->available_cc;
	size_t n;

	memcpy(name, val, len < TCP_CA_NAME_MAX - 1 ? len : TCP_CA_NAME_MAX - 1);
	n = strlen(name);
	if (!strcmp(name, MRCIZE_CC_NAME))
		return true;
	while (p && *p) {
		p += strspn(p, " \t\n");
		if (!strncmp(p, name, n) && (p[n] == 0 || strchr(" \t\n", p[n])))
			return n > 0;
		p += strcspn(p, " \t\n");
	}
	return false;
}

/* The options whose value is a string or a key: checked before the int. */
static int mrcize_tcp_set_bytes(const struct mrcize_opt_ctx *ctx, int name, const void *val,
				socklen_t len)
{
	switch (name) {
	case TCP_CONGESTION:
		if (len < 1)
			return -EINVAL;
		if (!val)
			return -EFAULT;
		return mrcize_cc_known(ctx, val, len) ? 0 : -ENOENT;
	case TCP_ULP:
		return len < 1 ? -EINVAL : -ENOENT;
	case TCP_FASTOPEN_KEY:
		return len == TCP_FO_KEY_LEN || len == 2 * TCP_FO_KEY_LEN ? 0 : -EINVAL;
	}
	return 1;
}

static bool mrcize_is_bool(int v)
{
	return v == 0 || v == 1;
}

static bool mrcize_closed_or_listening(const struct mrcize_opt_ctx *ctx)
{
	return ctx->state == MRCIZE_TCP_CLOSE || ctx->state == MRCIZE_TCP_LISTEN;
}

/* do_tcp_setsockopt()'s int options, in its order of checks. */
static int mrcize_tcp_set_int(const struct mrcize_opt_ctx *ctx, int name, int v)
{
	switch (name) {
	case TCP_MAXSEG:
		return v && (v < TCP_MIN_MSS || v > TCP_MAX_WINDOW) ? -EINVAL : 0;
	case TCP_NODELAY:
	case TCP_CORK:
	case TCP_LINGER2:
	case TCP_DEFER_ACCEPT:
	case TCP_QUICKACK:
	case TCP_NOTSENT_LOWAT:
	case TCP_TX_DELAY:
		return 0;
	case TCP_THIN_LINEAR_TIMEOUTS:
	case TCP_THIN_DUPACK:
	case TCP_INQ:
		return mrcize_is_bool(v) ? 0 : -EINVAL;
	case TCP_KEEPIDLE:
		return v < 1 || v > TCP_MAX_KEEPIDLE ? -EINVAL : 0;
	case TCP_KEEPINTVL:
		return v < 1 || v > TCP_MAX_KEEPINTVL ? -EINVAL : 0;
	case TCP_KEEPCNT:
		return v < 1 || v > TCP_MAX_KEEPCNT ? -EINVAL : 0;
	case TCP_SYNCNT:
		return v < 1 || v > TCP_MAX_SYNCNT ? -EINVAL : 0;
	case TCP_SAVE_SYN:
		return v < 0 || v > 2 ? -EINVAL : 0;
	case TCP_WINDOW_CLAMP:
		return !v && ctx->state != MRCIZE_TCP_CLOSE ? -EINVAL : 0;
	case TCP_USER_TIMEOUT:
		return v < 0 ? -EINVAL : 0;
	case TCP_FASTOPEN:
		return v >= 0 && mrcize_closed_or_listening(ctx) ? 0 : -EINVAL;
	case TCP_FASTOPEN_CONNECT:
		if (!mrcize_is_bool(v))
			return -EINVAL;
		if (!(ctx->fastopen & TFO_CLIENT_ENABLE))
			return -EOPNOTSUPP;
		return ctx->state == MRCIZE_TCP_CLOSE ? 0 : -EINVAL;
	case TCP_FASTOPEN_NO_COOKIE:
		return mrcize_is_bool(v) && mrcize_closed_or_listening(ctx) ? 0 : -EINVAL;
	/* Repair mode is never on: each check fails as it does outside it. */
	case TCP_REPAIR:
	case TCP_REPAIR_QUEUE:
	case TCP_TIMESTAMP:
	case TCP_REPAIR_WINDOW:
		return -EPERM;
	case TCP_QUEUE_SEQ:
		return ctx->state != MRCIZE_TCP_CLOSE ? -EPERM : -EINVAL;
	case TCP_REPAIR_OPTIONS:
		return -EINVAL;
	case TCP_MD5SIG:
	case TCP_MD5SIG_EXT:
		/* TCP checks the length before it parses the key. */
		return -EINVAL;
	}
	return -ENOPROTOOPT;
}

int mrcize_tcp_setsockopt(const struct mrcize_opt_ctx *ctx, int name, const void *val,
			  socklen_t len)
{
	int r = mrcize_tcp_set_bytes(ctx, name, val, len), v;

	if (r <= 0)
		return r;
	if (len < sizeof(int))
		return -EINVAL;
	if (!val)
		return -EFAULT;
	if ((name == TCP_MD5SIG || name == TCP_MD5SIG_EXT) && len >= sizeof(struct tcp_md5sig))
		return -ENOPROTOOPT;	/* a well-formed key: MRC cannot sign */
	memcpy(&v, val, sizeof(v));
	return mrcize_tcp_set_int(ctx, name, v);
}

static int mrcize_kept_int(const struct mrcize_opt_ctx *ctx, int def)
{
	int v;

	if (!ctx->kept || ctx->kept_len < sizeof(int))
		return def;
	memcpy(&v, ctx->kept, sizeof(v));
	return v;
}

static unsigned int mrcize_ms_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned int)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static int mrcize_tcp_window_clamp(const struct mrcize_opt_ctx *ctx)
{
	int v = mrcize_kept_int(ctx, 0);

	if (!ctx->kept)
		return ctx->state == MRCIZE_TCP_ESTABLISHED ? ctx->rcvbuf / 2 : 0;
	if (v && (unsigned int)v < TCP_MIN_WINDOW_CLAMP)
		return TCP_MIN_WINDOW_CLAMP;
	return v;
}

static int mrcize_tcp_linger2(const struct mrcize_opt_ctx *ctx)
{
	int v = mrcize_kept_int(ctx, 0);

	if (v < 0)
		return -1;
	if (!v)
		return ctx->fin_timeout;
	return v > TCP_FIN_TIMEOUT_MAX_SECS ? TCP_FIN_TIMEOUT_MAX_SECS : v;
}

static int mrcize_tcp_maxseg(const struct mrcize_opt_ctx *ctx)
{
	int user = mrcize_kept_int(ctx, 0);

	if (user && ctx->state != MRCIZE_TCP_ESTABLISHED)
		return user;
	return ctx->state == MRCIZE_TCP_ESTABLISHED ? ctx->mss : MRCIZE_TCP_MSS_DEFAULT;
}

/* The int an int option reads; 1 with *@err set when it reads an error. */
static int mrcize_tcp_get_int(const struct mrcize_opt_ctx *ctx, int name, int *err)
{
	*err = 0;
	switch (name) {
	case TCP_MAXSEG:
		return mrcize_tcp_maxseg(ctx);
	case TCP_NODELAY:
	case TCP_CORK:
		return !!mrcize_kept_int(ctx, 0);
	case TCP_KEEPIDLE:
		return mrcize_kept_int(ctx, ctx->keepalive_time);
	case TCP_KEEPINTVL:
		return mrcize_kept_int(ctx, ctx->keepalive_intvl);
	case TCP_KEEPCNT:
		return mrcize_kept_int(ctx, ctx->keepalive_probes);
	case TCP_SYNCNT:
		return mrcize_kept_int(ctx, ctx->syn_retries);
	case TCP_LINGER2:
		return mrcize_tcp_linger2(ctx);
	case TCP_DEFER_ACCEPT:
		return mrcize_defer_accept_secs(mrcize_kept_int(ctx, 0));
	case TCP_WINDOW_CLAMP:
		return mrcize_tcp_window_clamp(ctx);
	case TCP_QUICKACK:
		return !!mrcize_kept_int(ctx, 1);
	case TCP_THIN_LINEAR_TIMEOUTS:
	case TCP_USER_TIMEOUT:
	case TCP_FASTOPEN:
	case TCP_FASTOPEN_CONNECT:
	case TCP_FASTOPEN_NO_COOKIE:
	case TCP_TX_DELAY:
	case TCP_NOTSENT_LOWAT:
	case TCP_INQ:
	case TCP_SAVE_SYN:
		return mrcize_kept_int(ctx, 0);
	case TCP_THIN_DUPACK:
	case TCP_REPAIR:
		return 0;
	case TCP_TIMESTAMP:
		return (int)mrcize_ms_clock();
	case TCP_REPAIR_QUEUE:
	case TCP_QUEUE_SEQ:
		*err = -EINVAL;
		return 1;
	}
	*err = -ENOPROTOOPT;
	return 1;
}

static int mrcize_give_bytes(void *val, socklen_t *len, const void *src, socklen_t n)
{
	if (*len < n)
		n = *len;
	if (n && !val)
		return -EFAULT;
	memcpy(val, src, n);
	*len = n;
	return 0;
}

/*
 * TCP_ZEROCOPY_RECEIVE: tcp_zerocopy_receive()'s checks, then what it
 * answers when less than a page is ready to map: nothing to map, nothing
 * to skip. A program cannot have mapped an AF_MRC socket (mmap() fails),
 * so it never gets further and falls back to recv().
 */
static int mrcize_tcp_zerocopy_receive(const struct mrcize_opt_ctx *ctx, void *val,
				       socklen_t *len)
{
	struct tcp_zerocopy_receive zc = { 0 };
	const unsigned char *tail = (const unsigned char *)val + sizeof(zc);
	socklen_t n = *len, i;

	if (n < TCP_ZC_MIN_LEN)
		return -EINVAL;
	if (!val)
		return -EFAULT;
	if (n > sizeof(zc)) {
		for (i = 0; i < n - sizeof(zc); i++)
			if (tail[i])
				return -EINVAL;
		n = sizeof(zc);
		*len = n;
	}
	memcpy(&zc, val, n);
	if (zc.reserved || (zc.msg_flags & ~TCP_CMSG_TS))
		return -EINVAL;
	if (zc.address & (TCP_PAGE_SIZE - 1))
		return -EINVAL;
	if (ctx->state == MRCIZE_TCP_LISTEN)
		return -ENOTCONN;
	zc.length = 0;
	zc.recv_skip_hint = 0;
	zc.inq = 0;
	zc.err = 0;
	zc.msg_flags = 0;
	memcpy(val, &zc, n);
	return 0;
}

/* The options that read bytes, not an int; 1 for the others. */
static int mrcize_tcp_get_bytes(const struct mrcize_opt_ctx *ctx, int name, void *val,
				socklen_t *len)
{
	char cc[TCP_CA_NAME_MAX] = MRCIZE_CC_NAME;

	switch (name) {
	case TCP_CONGESTION:
		return mrcize_give_bytes(val, len, cc, sizeof(cc));
	case TCP_CC_INFO:
	case TCP_ULP:
	case TCP_SAVED_SYN:
		*len = 0;
		return 0;
	case TCP_FASTOPEN_KEY:
		return mrcize_give_bytes(val, len, ctx->kept, ctx->kept ? ctx->kept_len : 0);
	case TCP_REPAIR_WINDOW:
		return *len != 20 ? -EINVAL : -EPERM;	/* struct tcp_repair_window */
	case TCP_ZEROCOPY_RECEIVE:
		return mrcize_tcp_zerocopy_receive(ctx, val, len);
	}
	return 1;
}

int mrcize_tcp_getsockopt(const struct mrcize_opt_ctx *ctx, int name, void *val,
			  socklen_t *len)
{
	int r, v, err;

	if (!len)
		return -EFAULT;
	if ((int)*len < 0)
		return -EINVAL;
	r = mrcize_tcp_get_bytes(ctx, name, val, len);
	if (r <= 0)
		return r;
	v = mrcize_tcp_get_int(ctx, name, &err);
	if (err)
		return err;
	return mrcize_give_bytes(val, len, &v, sizeof(v));
}

int mrcize_tcp_info(const struct mrcize_tcp_info_src *src, void *val, socklen_t *len)
{
	struct tcp_info ti = { 0 };

	if (!len)
		return -EFAULT;
	if ((int)*len < 0)
		return -EINVAL;
	switch (src->state) {
	case MRCIZE_TCP_ESTABLISHED:
		ti.tcpi_state = TCP_STATE_ESTABLISHED;
		ti.tcpi_rto = src->rto_us;
		ti.tcpi_rtt = src->srtt_us;
		ti.tcpi_rttvar = src->srtt_us / 4;
		ti.tcpi_snd_mss = src->mss;
		ti.tcpi_rcv_mss = src->mss;
		ti.tcpi_advmss = src->mss;
		ti.tcpi_pmtu = src->mss;
		ti.tcpi_snd_cwnd = src->mss ? src->cwnd_bytes / src->mss : 0;
		ti.tcpi_total_retrans = (__u32)src->retx_pkts;
		ti.tcpi_bytes_sent = src->tx_bytes;
		ti.tcpi_bytes_received = src->rx_bytes;
		ti.tcpi_bytes_retrans = src->retx_pkts * src->mss;
		break;
	case MRCIZE_TCP_LISTEN:
		ti.tcpi_state = TCP_STATE_LISTEN;
		break;
	default:
		ti.tcpi_state = TCP_STATE_CLOSE;
	}
	return mrcize_give_bytes(val, len, &ti, sizeof(ti));
}
