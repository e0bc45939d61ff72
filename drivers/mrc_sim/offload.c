// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_sim control hooks: the struct mrc_offload_ops mrc calls (xmit is in
 * tx.c), the connection handles they manage, failure injection, and the
 * error and reset reports a device makes. Every hook counts its call;
 * the control hooks also log it (log.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "mrc_sim.h"

const char * const mrc_sim_hook_names[MRC_SIM_NHOOKS] = {
	[MRC_SIM_CAPS]		= "caps",
	[MRC_SIM_RX_STEER]	= "rx_steer",
	[MRC_SIM_CC_PROGRAM]	= "cc_program",
	[MRC_SIM_CONN_ADD]	= "conn_add",
	[MRC_SIM_EV_PROGRAM]	= "ev_program",
	[MRC_SIM_CONN_DEL]	= "conn_del",
	[MRC_SIM_XMIT]		= "xmit",
	[MRC_SIM_STATS]		= "stats",
	[MRC_SIM_RX]		= "rx",
};

bool mrc_sim_hook_failable(enum mrc_sim_hook hook)
{
	return hook != MRC_SIM_CONN_DEL && hook != MRC_SIM_RX;
}

/* The error fail_<hook> tells @hook to return, counted, or 0. */
int mrc_sim_inject(struct mrc_sim_dev *sim, enum mrc_sim_hook hook)
{
	u32 err = READ_ONCE(sim->fail[hook]);

	if (likely(!err))
		return 0;
	atomic64_inc(&sim->errors);
	return -(int)min_t(u32, err, MAX_ERRNO);
}

/*
 * The device of @dev. rx_handler_data is ours from before
 * mrc_offload_register() until after mrc_offload_unregister(), that is,
 * while any hook can run (see struct mrc_sim_dev).
 */
static struct mrc_sim_dev *mrc_sim_of(struct net_device *dev)
{
	if (WARN_ON_ONCE(rcu_access_pointer(dev->rx_handler) !=
			 mrc_sim_handle_frame))
		return NULL;
	return rcu_dereference_protected(dev->rx_handler_data, true);
}

static int mrc_sim_caps(struct net_device *dev, struct mrc_offload_caps *caps)
{
	struct mrc_sim_dev *sim = mrc_sim_of(dev);
	int err;

	if (!sim)
		return -ENODEV;
	atomic64_inc(&sim->calls[MRC_SIM_CAPS]);
	mrc_sim_log(sim, "caps");
	err = mrc_sim_inject(sim, MRC_SIM_CAPS);
	if (err)
		return err;

	memset(caps, 0, sizeof(*caps));
	caps->features = READ_ONCE(sim->features);
	caps->ev_table_size = READ_ONCE(sim->ev_table_size);
	caps->max_conns = READ_ONCE(sim->max_conns);
	caps->cc_algos = READ_ONCE(sim->cc_algos);
	caps->max_segment = 0;
	return 0;
}

static int mrc_sim_rx_steer(struct net_device *dev, u16 port, bool on)
{
	struct mrc_sim_dev *sim = mrc_sim_of(dev);
	int i, slot = -1, err = 0;
	unsigned long flags;

	if (!sim)
		return on ? -ENODEV : 0;
	atomic64_inc(&sim->calls[MRC_SIM_RX_STEER]);
	mrc_sim_log(sim, "rx_steer port=%u on=%d", port, on);
	if (on) {
		err = mrc_sim_inject(sim, MRC_SIM_RX_STEER);
		if (err)
			return err;
		if (!port)
			return -EINVAL;
	}

	spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < MRC_SIM_MAX_PORTS; i++) {
		if (sim->rx_ports[i] == port) {
			if (!on)
				WRITE_ONCE(sim->rx_ports[i], 0);
			goto out;
		}
		if (!sim->rx_ports[i] && slot < 0)
			slot = i;
	}
	if (on) {
		if (slot >= 0)
			WRITE_ONCE(sim->rx_ports[slot], port);
		else
			err = -ENOSPC;
	}
out:
	spin_unlock_irqrestore(&sim->lock, flags);
	return err;
}

static int mrc_sim_cc_program(struct net_device *dev,
			      const struct mrc_offload_cc *cc)
{
	struct mrc_sim_dev *sim = mrc_sim_of(dev);
	int err;

	if (!sim)
		return -ENODEV;
	atomic64_inc(&sim->calls[MRC_SIM_CC_PROGRAM]);
	mrc_sim_log(sim, "cc_program profile=%u", cc->profile);
	err = mrc_sim_inject(sim, MRC_SIM_CC_PROGRAM);
	if (err)
		return err;
	if (!cc->algo || (cc->algo & ~READ_ONCE(sim->cc_algos)))
		return -EOPNOTSUPP;
	return 0;
}

static int mrc_sim_conn_add(struct net_device *dev,
			    const struct mrc_offload_conn *conn, void **handle)
{
	struct mrc_sim_dev *sim = mrc_sim_of(dev);
	struct mrc_sim_conn *c;
	unsigned long flags;
	int err;

	if (!sim)
		return -ENODEV;
	atomic64_inc(&sim->calls[MRC_SIM_CONN_ADD]);
	err = mrc_sim_inject(sim, MRC_SIM_CONN_ADD);
	if (err)
		goto err_log;
	/* P hooks are serialised by mrc: no race on the count. */
	if (atomic_read(&sim->nconns) >= READ_ONCE(sim->max_conns) ||
	    conn->nevs > READ_ONCE(sim->ev_table_size)) {
		err = -ENOSPC;
		goto err_log;
	}
	c = kvzalloc(struct_size(c, evs, conn->nevs), GFP_KERNEL);
	if (!c) {
		err = -ENOMEM;
		goto err_log;
	}
	c->sim = sim;
	c->conn_id = conn->conn_id;
	c->nevs = conn->nevs;
	atomic64_set(&c->tx_pkts, 0);
	atomic64_set(&c->tx_bytes, 0);
	atomic64_set(&c->errors, 0);

	spin_lock_irqsave(&sim->lock, flags);
	list_add_tail(&c->node, &sim->conns);
	spin_unlock_irqrestore(&sim->lock, flags);
	atomic_inc(&sim->nconns);

	mrc_sim_log(sim, "conn_add conn=%u nevs=%u", c->conn_id, c->nevs);
	*handle = c;
	return 0;

err_log:
	mrc_sim_log(sim, "conn_add conn=%u err=%d", conn->conn_id, err);
	return err;
}

/* A (under mrc's connection spinlock) or P: no sleeping. */
static int mrc_sim_ev_program(struct net_device *dev, void *handle, u32 slot,
			      u32 ev, u8 state)
{
	struct mrc_sim_conn *c = handle;
	struct mrc_sim_dev *sim = c->sim;
	unsigned long flags;
	int err;

	atomic64_inc(&sim->calls[MRC_SIM_EV_PROGRAM]);
	mrc_sim_log(sim, "ev_program conn=%u slot=%u ev=%u state=%u",
		    c->conn_id, slot, ev, state);
	err = mrc_sim_inject(sim, MRC_SIM_EV_PROGRAM);
	if (err) {
		atomic64_inc(&c->errors);
		return err;
	}
	if (slot >= c->nevs)
		return -EINVAL;

	/* A lost connection (reset) keeps its zeroed table. */
	spin_lock_irqsave(&sim->lock, flags);
	if (!c->lost) {
		c->evs[slot].ev = ev;
		c->evs[slot].state = state;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}

static void mrc_sim_conn_free(struct mrc_sim_conn *c)
{
	atomic_dec(&c->sim->nconns);
	kvfree(c);
}

static void mrc_sim_conn_del(struct net_device *dev, void *handle)
{
	struct mrc_sim_conn *c = handle;
	struct mrc_sim_dev *sim = c->sim;
	unsigned long flags;

	atomic64_inc(&sim->calls[MRC_SIM_CONN_DEL]);
	mrc_sim_log(sim, "conn_del conn=%u", c->conn_id);
	spin_lock_irqsave(&sim->lock, flags);
	list_del(&c->node);
	spin_unlock_irqrestore(&sim->lock, flags);
	mrc_sim_conn_free(c);
}

static int mrc_sim_stats(struct net_device *dev, void *handle,
			 struct mrc_offload_stats *stats)
{
	struct mrc_sim_conn *c = handle;
	struct mrc_sim_dev *sim = c ? c->sim : mrc_sim_of(dev);
	int err;

	if (!sim)
		return -ENODEV;
	atomic64_inc(&sim->calls[MRC_SIM_STATS]);
	if (c)
		mrc_sim_log(sim, "stats conn=%u", c->conn_id);
	else
		mrc_sim_log(sim, "stats dev");
	err = mrc_sim_inject(sim, MRC_SIM_STATS);
	if (err)
		return err;

	memset(stats, 0, sizeof(*stats));
	if (c) {
		/* RX is handed to mrc before it is matched to a connection. */
		stats->tx_pkts = atomic64_read(&c->tx_pkts);
		stats->tx_bytes = atomic64_read(&c->tx_bytes);
		stats->errors = atomic64_read(&c->errors);
	} else {
		stats->tx_pkts = atomic64_read(&sim->tx_pkts);
		stats->tx_bytes = atomic64_read(&sim->tx_bytes);
		stats->rx_pkts = atomic64_read(&sim->rx_pkts);
		stats->rx_bytes = atomic64_read(&sim->rx_bytes);
		stats->errors = atomic64_read(&sim->errors);
	}
	return 0;
}

const struct mrc_offload_ops mrc_sim_offload_ops = {
	.version	= MRC_OFFLOAD_API_VERSION,
	.driver		= MRC_SIM_DRV_NAME,
	.caps		= mrc_sim_caps,
	.rx_steer	= mrc_sim_rx_steer,
	.cc_program	= mrc_sim_cc_program,
	.conn_add	= mrc_sim_conn_add,
	.ev_program	= mrc_sim_ev_program,
	.conn_del	= mrc_sim_conn_del,
	.xmit		= mrc_sim_xmit,
	.stats		= mrc_sim_stats,
};

/*
 * Teardown, after mrc_offload_unregister(): mrc has deleted every
 * connection by now; free whatever it left behind.
 */
void mrc_sim_conns_free(struct mrc_sim_dev *sim)
{
	struct mrc_sim_conn *c, *tmp;

	WARN_ON_ONCE(!list_empty(&sim->conns));
	list_for_each_entry_safe(c, tmp, &sim->conns, node) {
		list_del(&c->node);
		mrc_sim_conn_free(c);
	}
}

/*
 * The device resets: it loses every connection (their EV tables are
 * zeroed, xmit drops their packets; mrc still deletes each one) and
 * tells mrc. Process context (debugfs).
 */
void mrc_sim_reset(struct mrc_sim_dev *sim)
{
	struct mrc_offload_dev *od;
	struct mrc_sim_conn *c;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	list_for_each_entry(c, &sim->conns, node) {
		WRITE_ONCE(c->lost, true);
		memset(c->evs, 0, array_size(c->nevs, sizeof(c->evs[0])));
	}
	spin_unlock_irqrestore(&sim->lock, flags);

	mrc_sim_log(sim, "report reset");
	rcu_read_lock();
	od = rcu_dereference(sim->od);
	if (od)
		mrc_offload_report(od, MRC_OFFLOAD_REPORT_RESET, 0);
	rcu_read_unlock();
}

/* The device reports an error: @err is a negative errno. */
void mrc_sim_report_error(struct mrc_sim_dev *sim, int err)
{
	struct mrc_offload_dev *od;

	mrc_sim_log(sim, "report error=%d", err);
	rcu_read_lock();
	od = rcu_dereference(sim->od);
	if (od)
		mrc_offload_report(od, MRC_OFFLOAD_REPORT_ERROR, err);
	rcu_read_unlock();
}
