// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_sim module entry points and the life cycle of a simulated device:
 * creation on a netdev (new_device), removal (del_device, the netdev
 * going away, module exit). See struct mrc_sim_dev for the locking rules
 * and the teardown order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "mrc_sim.h"

/* Every struct mrc_sim_dev, by creation; under RTNL. */
static LIST_HEAD(mrc_sim_devs);

static struct mrc_sim_dev *mrc_sim_find(u32 id)
{
	struct mrc_sim_dev *sim;

	ASSERT_RTNL();
	list_for_each_entry(sim, &mrc_sim_devs, list)
		if (sim->id == id)
			return sim;
	return NULL;
}

static struct mrc_sim_dev *mrc_sim_alloc(u32 id)
{
	struct mrc_sim_dev *sim;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return NULL;
	if (mrc_sim_log_init(&sim->log)) {
		kfree(sim);
		return NULL;
	}
	sim->id = id;
	spin_lock_init(&sim->lock);
	INIT_LIST_HEAD(&sim->conns);
	sim->ev_table_size = MRC_SIM_EV_TABLE_SIZE;
	sim->max_conns = MRC_SIM_MAX_CONNS;
	sim->features = MRC_SIM_FEATURES;
	sim->cc_algos = MRC_SIM_CC_ALGOS;
	return sim;
}

static void mrc_sim_free(struct mrc_sim_dev *sim)
{
	mrc_sim_conns_free(sim);
	mrc_sim_log_free(&sim->log);
	kfree(sim);
}

/*
 * mrc_sim_dev_new - create device sim<@id> on the netdev called @ifname
 * in the caller's network namespace.
 */
int mrc_sim_dev_new(u32 id, const char *ifname)
{
	struct net *net = current->nsproxy->net_ns;
	struct mrc_offload_dev *od;
	struct mrc_sim_dev *sim;
	struct net_device *dev;
	int err;

	sim = mrc_sim_alloc(id);
	if (!sim)
		return -ENOMEM;

	rtnl_lock();
	if (mrc_sim_find(id)) {
		err = -EEXIST;
		goto err_unlock;
	}
	dev = __dev_get_by_name(net, ifname);
	if (!dev) {
		err = -ENODEV;
		goto err_unlock;
	}
	/* The hooks find @sim through rx_handler_data from now on. */
	err = netdev_rx_handler_register(dev, mrc_sim_handle_frame, sim);
	if (err)
		goto err_unlock;
	netdev_hold(dev, &sim->tracker, GFP_KERNEL);
	sim->netdev = dev;

	od = mrc_offload_register(dev, &mrc_sim_offload_ops);
	if (IS_ERR(od)) {
		err = PTR_ERR(od);
		goto err_rx_handler;
	}
	rcu_assign_pointer(sim->od, od);
	list_add_tail(&sim->list, &mrc_sim_devs);
	mrc_sim_dev_debugfs_init(sim);
	rtnl_unlock();
	return 0;

err_rx_handler:
	netdev_rx_handler_unregister(dev);
	netdev_put(dev, &sim->tracker);
err_unlock:
	rtnl_unlock();
	mrc_sim_free(sim);
	return err;
}

/* The driver-unbind path: see struct mrc_sim_dev for the order. */
static void mrc_sim_dev_del(struct mrc_sim_dev *sim)
{
	struct mrc_offload_dev *od = rtnl_dereference(sim->od);

	ASSERT_RTNL();
	list_del(&sim->list);
	mrc_sim_dev_debugfs_exit(sim);

	RCU_INIT_POINTER(sim->od, NULL);
	synchronize_net();
	mrc_offload_unregister(od);

	netdev_rx_handler_unregister(sim->netdev);
	netdev_put(sim->netdev, &sim->tracker);
	mrc_sim_free(sim);
}

int mrc_sim_dev_del_id(u32 id)
{
	struct mrc_sim_dev *sim;
	int err = 0;

	rtnl_lock();
	sim = mrc_sim_find(id);
	if (sim)
		mrc_sim_dev_del(sim);
	else
		err = -ENOENT;
	rtnl_unlock();
	return err;
}

static int mrc_sim_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mrc_sim_dev *sim, *tmp;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	list_for_each_entry_safe(sim, tmp, &mrc_sim_devs, list)
		if (sim->netdev == dev)
			mrc_sim_dev_del(sim);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_sim_netdev_nb = {
	.notifier_call = mrc_sim_netdev_event,
};

static int __init mrc_sim_init(void)
{
	int err;

	err = register_netdevice_notifier(&mrc_sim_netdev_nb);
	if (err)
		return err;
	err = mrc_sim_debugfs_init();
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	unregister_netdevice_notifier(&mrc_sim_netdev_nb);
	return err;
}

static void __exit mrc_sim_exit(void)
{
	struct mrc_sim_dev *sim, *tmp;

	/* No new_device or del_device write in flight after this. */
	mrc_sim_debugfs_exit_ctl();

	rtnl_lock();
	list_for_each_entry_safe(sim, tmp, &mrc_sim_devs, list)
		mrc_sim_dev_del(sim);
	rtnl_unlock();

	unregister_netdevice_notifier(&mrc_sim_netdev_nb);
	mrc_sim_debugfs_exit();
}

module_init(mrc_sim_init);
module_exit(mrc_sim_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MRC offload simulator: software offload provider for mrc");
