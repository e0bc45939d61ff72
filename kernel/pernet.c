// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state of MRC: allocation and teardown of
 * struct mrc_net, and its /proc/net/mrc_stat view.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/proc_fs.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "pernet.h"
#include "ctl/plane.h"
#include "conn/conn.h"
#include "conn/mem.h"

static unsigned int mrc_pernet_id __read_mostly;

struct mrc_net *mrc_pernet(const struct net *net)
{
	return net_generic(net, mrc_pernet_id);
}

static int mrc_stat_seq_show(struct seq_file *seq, void *v)
{
	struct net *net = seq->private;

	seq_printf(seq, "SockInUse %d\n", sock_prot_inuse_get(net, &mrc_prot));
	mrc_mem_seq_show(seq, mrc_pernet(net));
	mrc_mib_seq_show(seq, net);
	return 0;
}

/*
 * xa_init_flags() is an inline function with one lockdep key per file, so
 * every xarray initialised here would share one lock class, and lockdep
 * would take the profile tables' process-context locking for a softirq
 * lock taken with BHs on. The tables locked in softirq get classes of
 * their own.
 */
static struct lock_class_key mrc_conns_lock_key;
static struct lock_class_key mrc_ports_lock_key;

static void mrc_pernet_xa_classes(struct mrc_net *mn)
{
	lockdep_set_class(&mn->conns.xa_lock, &mrc_conns_lock_key);
	lockdep_set_class(&mn->ports.xa_lock, &mrc_ports_lock_key);
}

static int __net_init mrc_pernet_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_pernet(net);

	mn->net = net;
	mutex_init(&mn->lock);
	xa_init_flags(&mn->ev_profiles, XA_FLAGS_ALLOC);
	xa_init_flags(&mn->cc_profiles, XA_FLAGS_ALLOC);
	/* Softirq (RX) inserts and looks up too: BHs off around the lock. */
	xa_init_flags(&mn->conns, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	xa_init_flags(&mn->ports, XA_FLAGS_LOCK_BH);
	mrc_pernet_xa_classes(mn);
	if (mrc_conn_net_init(mn))
		return -ENOMEM;
	ratelimit_state_init(&mn->rst_limit, HZ, MRC_RST_PER_SEC);
	ratelimit_set_flags(&mn->rst_limit, RATELIMIT_MSG_ON_RELEASE);
	mrc_peer_net_init(mn);
	if (mrc_mem_net_init(mn))
		goto err_conn;
	mn->mib = alloc_percpu(struct mrc_mib);
	if (!mn->mib)
		goto err_mem;

	if (!proc_create_net_single("mrc_stat", 0444, net->proc_net,
				    mrc_stat_seq_show, NULL))
		goto err_free_mib;
	return 0;

err_free_mib:
	free_percpu(mn->mib);
err_mem:
	mrc_mem_net_exit(mn);
err_conn:
	mrc_conn_net_exit(mn);
	return -ENOMEM;
}

static void __net_exit mrc_pernet_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_pernet(net);

	remove_proc_entry("mrc_stat", net->proc_net);
	/* Connections left are orphans lingering after close. */
	mrc_conn_flush(mn);
	mrc_peer_net_exit(mn);
	/* Devices of a dying netns went first, taking their planes along. */
	mrc_plane_flush(mn);
	mrc_profiles_flush(mn);
	mrc_conn_net_exit(mn);
	xa_destroy(&mn->ports);
	free_percpu(mn->mib);
	mrc_mem_net_exit(mn);
}

static struct pernet_operations mrc_pernet_ops = {
	.init = mrc_pernet_net_init,
	.exit = mrc_pernet_net_exit,
	.id = &mrc_pernet_id,
	.size = sizeof(struct mrc_net),
};

int mrc_pernet_init(void)
{
	return register_pernet_subsys(&mrc_pernet_ops);
}

void mrc_pernet_exit(void)
{
	unregister_pernet_subsys(&mrc_pernet_ops);
}
