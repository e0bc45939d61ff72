/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrcize's answers to IPPROTO_TCP and SOL_SOCKET options on a socket it
 * carries over AF_MRC, free of interposition so the host tests can call
 * them. The rules are Linux 6.1's do_tcp_setsockopt()/do_tcp_getsockopt()
 * and sk_setsockopt()/sk_getsockopt(): the same checks in the same order,
 * the same errors, the same lengths. mrcize.c does what needs the socket
 * (TCP_INFO, TCP_USER_TIMEOUT, SO_PEERNAME); everything else is answered
 * here from the values the program set, or TCP's defaults.
 */
#ifndef MRCIZE_TCPOPT_H
#define MRCIZE_TCPOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How an option is answered on an mrcized socket (also its documentation). */
enum mrcize_opt_how {
	MRCIZE_OPT_KERNEL,	/* AF_MRC's own answer, which is TCP's */
	MRCIZE_OPT_MAPPED,	/* translated to or from an MRC value */
	MRCIZE_OPT_KEPT,	/* TCP's checks, value kept by mrcize */
	MRCIZE_OPT_CONST,	/* TCP's answer for a socket that never used it */
	MRCIZE_OPT_REFUSED,	/* the error TCP gives where it cannot apply */
};

struct mrcize_opt_desc {
	int level;		/* IPPROTO_TCP or SOL_SOCKET */
	int name;
	const char *id;		/* "TCP_NODELAY" */
	enum mrcize_opt_how how;
	const char *note;	/* what mrcize answers, for mrcize(1) */
};

/* Every option of both levels that 6.1's headers define; *@n entries. */
const struct mrcize_opt_desc *mrcize_opt_table(size_t *n);
/* The entry for (@level, @name), or NULL. */
const struct mrcize_opt_desc *mrcize_opt_find_desc(int level, int name);

/* What TCP's answer depends on besides the option's own value. */
enum mrcize_tcp_state { MRCIZE_TCP_CLOSE, MRCIZE_TCP_LISTEN, MRCIZE_TCP_ESTABLISHED };

struct mrcize_opt_ctx {
	enum mrcize_tcp_state state;
	int mss;		/* connected: the payload a segment carries */
	int rcvbuf;		/* SO_RCVBUF, for TCP_WINDOW_CLAMP */
	const void *kept;	/* the program's last accepted value, or NULL */
	socklen_t kept_len;
	/* TCP's sysctls (net.ipv4.tcp_*), read by the caller */
	int keepalive_time, keepalive_intvl, keepalive_probes;
	int syn_retries, fin_timeout, fastopen;
	const char *available_cc;	/* tcp_available_congestion_control */
};

/* The name TCP_CONGESTION reads back: MRC's congestion control. */
#define MRCIZE_CC_NAME "nscc"
/* TCP_MAXSEG of a socket that is not connected and set none (6.1). */
#define MRCIZE_TCP_MSS_DEFAULT 536

/*
 * mrcize_tcp_setsockopt - TCP's checks of setsockopt(IPPROTO_TCP, @name).
 * Return: 0 when TCP would accept it (mrcize then keeps the value), or
 * -errno as TCP 6.1 would return it. MAPPED options are checked here too;
 * the caller applies them.
 */
int mrcize_tcp_setsockopt(const struct mrcize_opt_ctx *ctx, int name, const void *val,
			  socklen_t len);

/*
 * mrcize_tcp_getsockopt - getsockopt(IPPROTO_TCP, @name) as TCP answers it.
 * @len in: the room at @val; out: what was written. TCP_INFO and
 * TCP_USER_TIMEOUT are the caller's. Return: 0 or -errno.
 */
int mrcize_tcp_getsockopt(const struct mrcize_opt_ctx *ctx, int name, void *val,
			  socklen_t *len);

/* What TCP_INFO is made of: MRC_CONN_INFO's figures. */
struct mrcize_tcp_info_src {
	enum mrcize_tcp_state state;
	unsigned int rto_us, srtt_us, mss, cwnd_bytes;
	unsigned long long retx_pkts, tx_bytes, rx_bytes;
};

/*
 * mrcize_tcp_info - TCP_INFO in 6.1's struct tcp_info (232 bytes; glibc's
 * is shorter), truncated to *@len as TCP truncates it. Return: 0 or -errno.
 */
int mrcize_tcp_info(const struct mrcize_tcp_info_src *src, void *val, socklen_t *len);

/* TCP_DEFER_ACCEPT's seconds after TCP's rounding to SYN-ACK retries. */
int mrcize_defer_accept_secs(int secs);

#ifdef __cplusplus
}
#endif

#endif /* MRCIZE_TCPOPT_H */
