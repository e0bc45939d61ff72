/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc_sim: a software MRC offload provider, in the manner of netdevsim.
 *
 * It makes an existing netdev (a veth in the tests) look like a NIC that
 * offloads MRC: it registers an rx_handler on the netdev and an ops table
 * with mrc (include/net/mrc_offload.h), implements every hook in software,
 * counts every call and fails, resets or vanishes when told to through
 * debugfs (/sys/kernel/debug/mrc_sim/).
 *
 * Files: main.c (module, device life cycle, netdev notifier), debugfs.c
 * (the user interface), log.c (the bounded hook log), offload.c (the
 * control hooks), tx.c (xmit), rx.c (the rx_handler and RX hand-off).
 */
#ifndef __MRC_SIM_H
#define __MRC_SIM_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <net/mrc_offload.h>

#define MRC_SIM_DRV_NAME	"mrc_sim"

/* Defaults of the capability knobs. */
#define MRC_SIM_EV_TABLE_SIZE	256
#define MRC_SIM_MAX_CONNS	1024
#define MRC_SIM_FEATURES	(MRC_OFFLOAD_F_TX | MRC_OFFLOAD_F_RX |	\
				 MRC_OFFLOAD_F_ACK_GEN |		\
				 MRC_OFFLOAD_F_NACK_GEN |		\
				 MRC_OFFLOAD_F_TRIM)
#define MRC_SIM_CC_ALGOS	MRC_OFFLOAD_CC_NSCC

/* UDP ports one device can steer at the same time. */
#define MRC_SIM_MAX_PORTS	4

/* The hook log keeps this many lines, each at most LINE_LEN - 1 chars. */
#define MRC_SIM_LOG_LINES	4096
#define MRC_SIM_LOG_LINE_LEN	80

/*
 * What is counted, in the order of the "counters" file. The first ones
 * are the hooks (and the RX hand-off); fail_<hook> knobs exist for those
 * marked failable in mrc_sim_hook_failable().
 */
enum mrc_sim_hook {
	MRC_SIM_CAPS,
	MRC_SIM_RX_STEER,
	MRC_SIM_CC_PROGRAM,
	MRC_SIM_CONN_ADD,
	MRC_SIM_EV_PROGRAM,
	MRC_SIM_CONN_DEL,
	MRC_SIM_XMIT,
	MRC_SIM_STATS,
	MRC_SIM_RX,		/* packets handed to mrc_offload_rx() */
	MRC_SIM_NHOOKS
};

extern const char * const mrc_sim_hook_names[MRC_SIM_NHOOKS];

/*
 * struct mrc_sim_log - the last MRC_SIM_LOG_LINES control-hook calls.
 * @lock:	protects everything below; taken from any context
 *		(irqsave), never held while calling out of mrc_sim
 * @lines:	ring of fixed-size lines; line number n is at n % LINES
 * @first:	number of the oldest line kept (moves on clear)
 * @next:	number the next line gets
 */
struct mrc_sim_log {
	spinlock_t	lock;	/* see above */
	char		(*lines)[MRC_SIM_LOG_LINE_LEN];
	u64		first;
	u64		next;
};

/* One EV table entry of a connection on the device. */
struct mrc_sim_ev {
	u32	ev;
	u8	state;		/* enum mrc_ev_state */
};

/*
 * struct mrc_sim_conn - a connection handle (the void *handle of the
 * offload API).
 *
 * Lifetime: allocated by conn_add, freed by conn_del; mrc guarantees no
 * other hook uses the handle once conn_del is called. Lives on
 * @sim->conns meanwhile.
 *
 * Locking: @node, @lost and @evs are written under @sim->lock (ev_program
 * runs under mrc's connection spinlock, reset from process context);
 * xmit reads @lost locklessly. The counters are atomic: xmit may run on
 * several CPUs at once.
 *
 * @sim:	the device
 * @conn_id:	mrc's connection id (for the log)
 * @nevs:	size of @evs
 * @lost:	the device was reset: the connection no longer exists on it
 * @xmitted:	bit 0 set at the first xmit (logged once)
 */
struct mrc_sim_conn {
	struct list_head	node;
	struct mrc_sim_dev	*sim;
	u32			conn_id;
	u32			nevs;
	bool			lost;
	unsigned long		xmitted;
	atomic64_t		tx_pkts;
	atomic64_t		tx_bytes;
	atomic64_t		errors;
	struct mrc_sim_ev	evs[];
};

/*
 * struct mrc_sim_dev - one simulated offload device (sim<ID>).
 *
 * Lifetime: created by a write to new_device, destroyed by del_device,
 * by NETDEV_UNREGISTER of @netdev or at module exit, always under RTNL
 * (mrc_sim_dev_new() / mrc_sim_dev_del()). Teardown order:
 *   1. the debugfs directory goes (waits for file operations in flight:
 *      no report and no knob change after this);
 *   2. @od is cleared and synchronize_net(): the rx_handler no longer
 *      calls mrc_offload_rx();
 *   3. mrc_offload_unregister(): no hook runs after it returns;
 *   4. netdev_rx_handler_unregister() (waits for the rx_handler);
 *   5. the netdev reference is dropped and everything freed.
 * The hooks find the device through @netdev's rx_handler_data, which is
 * set before mrc_offload_register() and cleared only after
 * mrc_offload_unregister(), so it is stable while any hook runs.
 *
 * Locking:
 *   @list, @id, @netdev, @tracker and @ddir: RTNL.
 *   @od: written under RTNL, read by the rx_handler under RCU.
 *   @lock protects @conns, the connections' EV tables and @rx_ports
 *   writes (irqsave: taken from the A hooks); the rx_handler reads
 *   @rx_ports with READ_ONCE().
 *   The knobs (@fail, @ev_table_size, ...) are plain u32 written by
 *   debugfs and read with READ_ONCE() at each use.
 *   Counters are atomic64_t.
 */
struct mrc_sim_dev {
	struct list_head		list;
	u32				id;
	struct net_device		*netdev;
	netdevice_tracker		tracker;
	struct mrc_offload_dev __rcu	*od;
	struct dentry			*ddir;

	spinlock_t			lock;	/* see above */
	struct list_head		conns;
	u16				rx_ports[MRC_SIM_MAX_PORTS];

	/* knobs */
	u32				fail[MRC_SIM_NHOOKS];
	u32				ev_table_size;
	u32				max_conns;
	u32				features;
	u32				cc_algos;

	/* counters */
	atomic64_t			calls[MRC_SIM_NHOOKS];
	atomic64_t			tx_pkts;
	atomic64_t			tx_bytes;
	atomic64_t			rx_pkts;
	atomic64_t			rx_bytes;
	atomic64_t			errors;
	atomic_t			nconns;

	struct mrc_sim_log		log;
};

/* main.c */
int mrc_sim_dev_new(u32 id, const char *ifname);
int mrc_sim_dev_del_id(u32 id);

/* debugfs.c */
int mrc_sim_debugfs_init(void);
void mrc_sim_debugfs_exit_ctl(void);
void mrc_sim_debugfs_exit(void);
void mrc_sim_dev_debugfs_init(struct mrc_sim_dev *sim);
void mrc_sim_dev_debugfs_exit(struct mrc_sim_dev *sim);

/* log.c */
int mrc_sim_log_init(struct mrc_sim_log *log);
void mrc_sim_log_free(struct mrc_sim_log *log);
__printf(2, 3) void mrc_sim_log(struct mrc_sim_dev *sim, const char *fmt,
				...);
void mrc_sim_log_clear(struct mrc_sim_log *log);
extern const struct seq_operations mrc_sim_log_seq_ops;

/* offload.c */
extern const struct mrc_offload_ops mrc_sim_offload_ops;
bool mrc_sim_hook_failable(enum mrc_sim_hook hook);
int mrc_sim_inject(struct mrc_sim_dev *sim, enum mrc_sim_hook hook);
void mrc_sim_conns_free(struct mrc_sim_dev *sim);
void mrc_sim_reset(struct mrc_sim_dev *sim);
void mrc_sim_report_error(struct mrc_sim_dev *sim, int err);

/* tx.c */
int mrc_sim_xmit(struct net_device *dev, void *handle, struct sk_buff *skb,
		 const struct mrc_offload_tx *tx);

/* rx.c */
rx_handler_result_t mrc_sim_handle_frame(struct sk_buff **pskb);
bool mrc_sim_port_steered(const struct mrc_sim_dev *sim, __be16 port);

#endif /* __MRC_SIM_H */
