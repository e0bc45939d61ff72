/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MRC (Multipath Reliable Connection) socket API shared by the kernel
 * module, the eBPF programs and the C++ tools. The wire format and the
 * generic netlink API get their own headers next to this one.
 */
#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#include <linux/types.h>
#include <linux/socket.h>

/*
 * Address family. Linux 6.1 has no free number at or above AF_MAX (46),
 * so mrc.ko borrows a number whose historic family is gone (19 was
 * AF_ECONET, removed in 3.5). The module parameter "family" overrides it;
 * programs must read the live value from MRC_FAMILY_SYSFS rather than
 * trusting this default.
 */
#define MRC_AF_DEFAULT		19
#define MRC_FAMILY_SYSFS	"/sys/module/mrc/parameters/family"

/* The only protocol number accepted by socket(AF_MRC, type, protocol). */
#define MRC_PROTO_DEFAULT	0

/* Level for setsockopt()/getsockopt() options of AF_MRC sockets. */
#define SOL_MRC			299

/* SOL_MRC options; all take a __u32 unless noted. */
#define MRC_EV_PROFILE		1	/* EV profile id (ONLINE), 0 = default */
#define MRC_CC_PROFILE		2	/* CC profile id (ONLINE), 0 = default */
#define MRC_USER_TIMEOUT	3	/* ms without progress before ETIMEDOUT */
#define MRC_EV_COUNT		4	/* EVs per connection, 1..256 */
#define MRC_CONN_ID		5	/* get only: the connection's id */
#define MRC_CONN_INFO		6	/* get only: struct mrc_conn_info */
#define MRC_LISTEN_TCP		7	/* stream listener: MRC_LISTEN_TCP_* flags */
#define MRC_CONNECT_TCP		8	/* stream: ms before connect() goes TCP */
#define MRC_CONNECT_TCP_USED	9	/* get only: why connect() went TCP, or 0 */
#define MRC_TRAIN		10	/* DATA packets in a row on one EV, 1..64 */
#define MRC_ZEROCOPY		11	/* stream: 1 allows MSG_ZEROCOPY sends */

/*
 * MRC_ZEROCOPY is SO_ZEROCOPY for AF_MRC (Linux 6.1 refuses SO_ZEROCOPY
 * outside TCP, UDP and RDS before the family sees it); getsockopt()'s
 * SO_ZEROCOPY reads the same flag. MSG_ZEROCOPY then behaves as TCP's:
 * the send pins the pages instead of copying them, and each send's
 * completion comes on the error queue (recvmsg(MSG_ERRQUEUE), level
 * SOL_IP, type IP_RECVERR, ee_origin SO_EE_ORIGIN_ZEROCOPY, sends
 * numbered from 0 in ee_info..ee_data), once the peer has acknowledged
 * every byte and no packet refers to the pages. Without the option,
 * MSG_ZEROCOPY is ignored and the bytes are copied.
 */

/*
 * MRC_LISTEN_TCP: a SOCK_STREAM listener with MRC_LISTEN_TCP_ON also
 * accepts TCP clients on its address and port (a TCP listener opened at
 * listen(); EADDRINUSE there if TCP has the port). accept() returns a
 * plain TCP socket for those. An IPv6 or unbound address listens on the
 * IPv6 wildcard, dual-stack unless MRC_LISTEN_TCP_V6ONLY.
 */
#define MRC_LISTEN_TCP_ON	0x1
#define MRC_LISTEN_TCP_V6ONLY	0x2

/*
 * MRC_CONNECT_TCP: set before connect() on a SOCK_STREAM socket, a number
 * of milliseconds (0: off, the default). When the peer refuses the MRC
 * handshake (reset, ICMP unreachable) or has not answered in that time,
 * the socket connects over TCP to the same address and port instead and
 * carries that TCP connection from then on: connect() (blocking or not),
 * poll, send, receive, shutdown, ioctls, the names and every option but
 * SOL_MRC's behave as TCP's; SO_ERROR reports TCP's errors. SOL_SOCKET
 * options are kept on the AF_MRC socket and copied to the TCP one (time-
 * outs, buffers, keep-alive, linger, priority, mark). MRC_CONNECT_TCP_USED
 * reads why on such a socket (MRC_CONNECT_TCP_*), 0 on others; MRC_CONN_ID
 * and MRC_CONN_INFO give ENOTCONN.
 */
#define MRC_CONNECT_TCP_REFUSED		1	/* a reset or ICMP error */
#define MRC_CONNECT_TCP_TIMEOUT		2	/* no answer in time */
#define MRC_CONNECT_TCP_UNREACHABLE	3	/* no plane routes to the peer */

/*
 * struct mrc_conn_info - a connection's counters (getsockopt MRC_CONN_INFO).
 * Fields are appended in later versions; @len says how many bytes the
 * kernel filled.
 */
struct mrc_conn_info {
	__u32	len;
	__u32	id;
	__u32	state;		/* enum mrc_conn_state (mrc_netlink.h) */
	__u32	srtt_us;
	__u32	rto_us;
	__u32	cwnd;
	__u32	evs_good;
	__u32	planes_usable;	/* bit p: plane p carries data */
	__u64	tx_data_bytes;
	__u64	retx_pkts;
	__u64	rx_data_bytes;
	__u64	dup_pkts;
	__u64	rto_count;
	__u64	longest_stall_us;
	__u64	early_data_bytes;	/* sent before the SYN_ACK */
	__u64	early_refused;	/* of those, answered "no connection yet" */
};

/*
 * struct sockaddr_mrc - an MRC endpoint.
 * @mrc_family:		the live AF_MRC value
 * @mrc_port:		service port in network byte order, like a TCP port
 * @mrc_addr_family:	AF_INET or AF_INET6: which member of the union is valid
 * @mrc_reserved:	must be zero
 * @mrc_addr4:		IPv4 address of any one plane of the host
 * @mrc_addr6:		IPv6 address of any one plane of the host
 * @mrc_scope_id:	IPv6 scope for link-local addresses, zero otherwise
 *
 * A host is reached through one of its plane addresses; the other planes
 * are learnt during the connection handshake.
 */
struct sockaddr_mrc {
	__kernel_sa_family_t	mrc_family;
	__be16			mrc_port;
	__u16			mrc_addr_family;
	__u16			mrc_reserved;
	union {
		__be32		mrc_addr4;
		__u8		mrc_addr6[16];
	};
	__u32			mrc_scope_id;
};

#endif /* _UAPI_LINUX_MRC_H */
