/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AF_MRC sockets: struct mrc_sock and what the socket files share
 * (socket.c: family, bind, options; connect.c: connect; connect_tcp.c:
 * its fallback to TCP; listen.c: listen, accept; listen_tcp.c: TCP
 * clients of a listener; io.c: send, receive, poll, shutdown).
 *
 * Locking: lock_sock() serialises the socket calls of one socket and
 * protects @local, @peer, @port and the options. The connection's spinlock
 * (conn.h) nests inside it. @accept_q is under @accept_lock (softirq adds,
 * accept() removes). RX finds listeners in mrc_net.ports under the
 * xarray's lock and takes a reference there; sockets are not RCU-freed, so
 * a closed socket lets the module go at once.
 */
#ifndef __MRC_SOCK_H
#define __MRC_SOCK_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <linux/mrc.h>

struct mrc_conn;
struct mrc_core_buf;
struct mrc_core_cfg;
struct mrc_net;
struct mrc_pkt;

/*
 * struct mrc_sock - an AF_MRC socket.
 * @sk:		the generic socket; first, so sk_alloc() sizes us
 * @conn:	the connection once connect() or the handshake made one; the
 *		socket holds a reference until release
 * @local/@peer: names for getsockname()/getpeername()
 * @port:	bound service port (host order), 0 if unbound
 * @port_hashed: @port is ours in mrc_net.ports
 * @port_shareable: @port came from connect()'s automatic bind: a
 *		connecting socket may share it (mrc_port_connect_bind())
 * @rx_msgs:	SOCK_SEQPACKET: complete messages in sk_receive_queue
 * @accept_q:	listener: established children not yet accepted
 * @accept_node: child: its place in the listener's @accept_q
 * @listen_tcp:	MRC_LISTEN_TCP flags
 * @tcp_listener: listener with MRC_LISTEN_TCP_ON: its TCP listener
 *		(listen_tcp.c says how it lives)
 * @connect_tcp: MRC_CONNECT_TCP's state, allocated when the option is
 *		first set (connect_tcp.c says how it lives)
 * @waiting:	a process sleeps in mrc_sock_wait() (for data, send space,
 *		the handshake): the connection's packets wait in the
 *		socket's backlog for it (conn/demux_defer.c); set and
 *		cleared by the owner, read under sk_lock.slock
 */
struct mrc_sock {
	struct sock		sk;
	struct mrc_conn		*conn;
	struct sockaddr_mrc	local;
	struct sockaddr_mrc	peer;
	u16			port;
	bool			port_hashed;
	bool			port_shareable;
	atomic_t		rx_msgs;
	spinlock_t		accept_lock;	/* guards @accept_q */
	struct list_head	accept_q;
	struct list_head	accept_node;
	u32			ev_profile;
	u32			cc_profile;
	u32			user_timeout_ms;
	u32			ev_count;
	u32			train;		/* MRC_TRAIN */
	u32			send_need;	/* bytes a blocked send waits for */
	u32			listen_tcp;
	struct socket		*tcp_listener;
	struct mrc_connect_tcp	*connect_tcp;
	bool			waiting;
	atomic_t		rmem_freed;	/* mem.c */
	bool			mem_wait;	/* the pool refused a send */
	u32			sndbuf_full;	/* the core's send buffer */
};

/*
 * struct mrc_connect_tcp - a connect() that may fall back to TCP.
 * @sk:		its socket
 * @ms:		how long connect() waits for the MRC handshake
 * @why:	MRC_CONNECT_TCP_*: why it went TCP (REFUSED is set in softirq
 *		before the work item is queued, read by it)
 * @tcp_sock:	the TCP socket it fell back to; set once, then every
 *		socket call goes there
 * @tcp_error_report: @tcp_sock's own sk_error_report, while hooked
 * @work:	the switch to TCP (process context)
 */
struct mrc_connect_tcp {
	struct sock		*sk;
	u32			ms;
	u32			why;
	struct socket		*tcp_sock;
	void			(*tcp_error_report)(struct sock *tsk);
	struct delayed_work	work;
};

static inline struct mrc_sock *mrc_sk(const struct sock *sk)
{
	return (struct mrc_sock *)sk;
}

/* The TCP socket @sk carries since its connect() fell back, or NULL. */
static inline struct socket *mrc_tcp_sock(const struct sock *sk)
{
	struct mrc_connect_tcp *ct = READ_ONCE(mrc_sk(sk)->connect_tcp);

	return ct ? READ_ONCE(ct->tcp_sock) : NULL;
}

/* Per-skb state of received data in sk_receive_queue. */
struct mrc_skb_cb {
	u32	consumed;	/* stream: bytes already read */
	u32	charged;	/* bytes charged to the pool (mem.c) */
	bool	eom;		/* seqpacket: last segment of a message */
};

/* A new socket's SO_SNDBUF and SO_RCVBUF (bytes) */
#define MRC_DEFAULT_BUF		(4 * 1024 * 1024)

#define MRC_SKB_CB(skb) ((struct mrc_skb_cb *)&((skb)->cb[0]))

/* mem.c: socket memory, charged to the protocol's pool */
extern long sysctl_mrc_mem[3];
void mrc_sock_mem_proto(struct proto *prot);
u32 mrc_sock_wmem_room(struct mrc_conn *conn, u32 space, u32 want);
void mrc_sock_rmem_charge(struct mrc_conn *conn, struct sk_buff *skb,
			  u32 size);
void mrc_sock_rmem_uncharge(struct sk_buff *skb);
void mrc_sock_mem_sync(struct mrc_conn *conn);
void mrc_sock_mem_destruct(struct sock *sk);
long mrc_sock_mem_pages(void);
bool mrc_sock_mem_pressure(void);
int mrc_sock_mem_init(void);
void mrc_sock_mem_exit(void);

/* socket.c */
struct sock *mrc_sock_alloc(struct net *net, struct socket *sock, int type,
			    gfp_t gfp, int kern);
int mrc_sock_core_cfg(struct sock *sk, struct mrc_core_cfg *cfg);
int mrc_port_bind(struct sock *sk, u16 port);
int mrc_port_connect_bind(struct sock *sk);
void mrc_port_unbind(struct sock *sk);
void mrc_sock_fill_addr(struct sockaddr_mrc *addr, int family,
			const void *ip, u16 port);

/* connect.c */
int mrc_connect(struct socket *sock, struct sockaddr *uaddr, int addr_len,
		int flags);
void mrc_sock_notify(struct mrc_conn *conn, int note, u32 arg);
void mrc_sock_set_peer(struct mrc_conn *conn, struct mrc_sock *msk,
		       const struct mrc_core_plane *peer, u16 port);

/* connect_tcp.c */
int mrc_connect_tcp_set(struct sock *sk, u32 ms);
u32 mrc_connect_tcp_get(const struct sock *sk, bool why);
void mrc_connect_tcp_arm(struct sock *sk);
int mrc_connect_tcp_unreachable(struct sock *sk,
				const struct sockaddr_mrc *addr, int err);
bool mrc_connect_tcp_refused(struct sock *sk);
void mrc_connect_tcp_release(struct sock *sk);
void mrc_connect_tcp_sync(struct sock *sk, struct sock *tsk);
int mrc_connect_tcp_connect(struct socket *sock,
			    const struct sockaddr_mrc *addr, int flags);
int mrc_connect_tcp_getname(struct socket *sock, struct sockaddr_mrc *addr,
			    int peer);

/* listen.c */
int mrc_listen(struct socket *sock, int backlog);
int mrc_accept(struct socket *sock, struct socket *newsock, int flags,
	       bool kern);
int mrc_listen_syn(struct mrc_net *mn, u32 plane, const struct mrc_pkt *syn);
void mrc_listen_stop(struct sock *sk);

/* listen_tcp.c */
int mrc_listen_tcp_start(struct sock *sk, int backlog);
void mrc_listen_tcp_stop(struct sock *sk);
bool mrc_listen_tcp_ready(const struct sock *sk);
int mrc_listen_tcp_accept(struct sock *sk, struct socket *newsock, bool kern);

/* io.c */
int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);
int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		int flags);
__poll_t mrc_poll(struct file *file, struct socket *sock,
		  struct poll_table_struct *wait);
int mrc_shutdown(struct socket *sock, int how);
int mrc_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg);
int mrc_sock_deliver(struct mrc_conn *conn, const void *data, u32 len,
		     u32 flags, void *ref);
void mrc_sock_rcv_space(struct sock *sk);
void mrc_sock_input_done(struct mrc_conn *conn);
int mrc_sock_wait(struct sock *sk, long *timeo, bool (*ready)(struct sock *));
void mrc_sock_flush(struct sock *sk);
struct mrc_conn *mrc_sock_detach(struct sock *sk);

/* zerocopy.c */
int mrc_sock_set_zerocopy(struct sock *sk, u32 val);
struct ubuf_info *mrc_sock_zc_start(struct sock *sk, struct msghdr *msg,
				    size_t len);
void mrc_sock_zc_end(struct ubuf_info *uarg, bool queued);
int mrc_sock_zc_piece(struct msghdr *msg, size_t max, struct ubuf_info *uarg,
		      struct mrc_core_buf *buf);
int mrc_sock_recv_error(struct sock *sk, struct msghdr *msg, size_t len);
void mrc_sock_support_zc(struct socket *sock);

#endif /* __MRC_SOCK_H */
