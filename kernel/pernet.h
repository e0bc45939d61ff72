/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the kernel-only files of mrc.ko: the socket
 * family, per-netns state and module-wide settings.
 */
#ifndef __MRC_PERNET_H
#define __MRC_PERNET_H

#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/rhashtable-types.h>
#include <linux/xarray.h>
#include <net/sock.h>
#include <linux/mrc.h>
#include <linux/mrc_netlink.h>

#include "conn/peer.h"
#include "mib.h"

#define MRC_MODULE_VERSION	"0.1.0"
/* RSTs a namespace sends per second to packets it has no connection for */
#define MRC_RST_PER_SEC		200

/* Address family in use, set once by the "family" module parameter. */
extern int mrc_family;

struct mrc_plane;

/*
 * net.mrc.early_data, as net.ipv4.tcp_fastopen: a client's first flight
 * of data follows its SYN (CONNECT: up to MRC_EARLY_DATA_BYTES, when the
 * socket sends before the handshake is done: MSG_FASTOPEN or a send()
 * after a non-blocking connect()); a listener takes the token a SYN
 * proposes, so that its early data finds the new connection (ACCEPT).
 */
#define MRC_EARLY_DATA_CONNECT	0x1
#define MRC_EARLY_DATA_ACCEPT	0x2
#define MRC_EARLY_DATA_BYTES	(64 * 1024)

/*
 * struct mrc_net - per network namespace state.
 * @net:	the namespace
 * @lock:	serialises every control-plane change of this netns: planes[],
 *		ev_profiles, cc_profiles and their contents. Lock order:
 *		rtnl_lock() before @lock (the netdev notifier runs under RTNL).
 * @planes:	planes by id; RCU for the data path, @lock for writers
 * @ev_profiles: EV profiles by id (struct mrc_ev_profile), RCU readers
 * @cc_profiles: CC profiles by id (struct mrc_cc_profile), RCU readers
 * @tokens:	connections by local token (struct mrc_conn.token_node),
 *		RCU readers: the demux's lookup
 * @conns:	connections by a dense index (struct mrc_conn.idx), RCU
 *		readers: walks and dumps. Both tables are hashed or dense on
 *		purpose: an xarray keyed by a random 32-bit token took a
 *		radix-tree node (584 bytes) or more per connection.
 * @syn_peers:	server connections by the peer's token (struct
 *		mrc_syn_peer), to recognise a retransmitted SYN
 * @ports:	bound service ports -> struct mrc_sock (listeners and bound
 *		sockets); written under @lock, RCU readers
 *
 * @conns and @ports are written and locked in softirq (a SYN makes a
 * child connection there), so their xa_lock is a BH lock
 * (XA_FLAGS_LOCK_BH): process context must use the _bh calls
 * (xa_alloc_bh(), xa_erase_bh(), xa_store_bh(), xa_lock_bh()), or a
 * SYN on the same CPU deadlocks on it. Softirq may use either. The
 * rhashtables (@tokens, @syn_peers) turn BHs off around their bucket
 * locks themselves.
 * @mib:	per-cpu counters, see mib.h
 *
 * Allocated by the pernet subsystem, lives exactly as long as the netns.
 */
struct mrc_net {
	struct net			*net;
	struct mutex			lock;	/* order: rtnl_lock, then this */
	struct mrc_plane __rcu		*planes[MRC_MAX_PLANES];
	struct xarray			ev_profiles;
	struct xarray			cc_profiles;
	struct rhashtable		tokens;
	struct xarray			conns;
	struct rhashtable		syn_peers;
	struct xarray			ports;
	u32				ports_ephemeral; /* of @ports; @lock */
	struct mrc_mib __percpu		*mib;
	/* RSTs to packets for no connection: never a reflection amplifier */
	struct ratelimit_state		rst_limit;
	/* bytes of connection memory charged, and the limit (mem.h) */
	atomic_long_t			mem;
	atomic_long_t			mem_refused;
	unsigned long			mem_max;
	struct ctl_table_header		*sysctl;
	/* peer hosts and their paths (conn/peer.h says the rules) */
	int				peer_paths;	/* net.mrc.peer_paths */
	int				early_data;	/* MRC_EARLY_DATA_* */
	spinlock_t			peers_lock;
	struct hlist_head		peers[1 << MRC_PEER_HASH_BITS];
	struct list_head		peer_list;
	u32				npeers;
	struct delayed_work		peer_sweep;
};

extern struct proto mrc_prot;

struct mrc_net *mrc_pernet(const struct net *net);

int mrc_pernet_init(void);
void mrc_pernet_exit(void);

void mrc_profiles_flush(struct mrc_net *mn);

int mrc_netlink_init(void);
void mrc_netlink_exit(void);

int mrc_socket_init(void);
void mrc_socket_exit(void);
int mrc_addr_validate(const struct sockaddr *uaddr, int addr_len);
const struct proto_ops *mrc_sock_ops(int type);

#endif /* __MRC_PERNET_H */
