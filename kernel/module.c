// SPDX-License-Identifier: GPL-2.0
/*
 * mrc.ko entry points: module parameters, init and exit. Each subsystem
 * is brought up in order and torn down in exactly the reverse order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "offload/offload.h"
#include "pernet.h"
#include "conn/conn.h"
#include "conn/mem.h"
#include "ctl/plane.h"

int mrc_family = MRC_AF_DEFAULT;
module_param_named(family, mrc_family, int, 0444);
MODULE_PARM_DESC(family, "socket address family number of AF_MRC (default "
		 __stringify(MRC_AF_DEFAULT) ", must be free and below AF_MAX)");

static int __init mrc_init(void)
{
	int err;

	if (mrc_family <= AF_UNSPEC || mrc_family >= AF_MAX) {
		pr_err("family=%d is out of range 1..%d\n", mrc_family,
		       AF_MAX - 1);
		return -EINVAL;
	}

	err = mrc_offload_init();
	if (err)
		return err;

	err = mrc_mem_module_init();
	if (err)
		goto err_offload;

	err = mrc_conn_init();
	if (err)
		goto err_mem;

	err = mrc_pernet_init();
	if (err)
		goto err_conn;

	err = mrc_netlink_init();
	if (err)
		goto err_pernet;

	/* After netlink: the notifier raises events. */
	err = mrc_plane_init();
	if (err)
		goto err_netlink;

	err = mrc_socket_init();
	if (err)
		goto err_plane;

	pr_info("AF_MRC registered as family %d\n", mrc_family);
	return 0;

err_plane:
	mrc_plane_exit();
err_netlink:
	mrc_netlink_exit();
err_pernet:
	mrc_pernet_exit();
err_conn:
	mrc_conn_exit();
err_mem:
	mrc_mem_module_exit();
err_offload:
	mrc_offload_exit();
	return err;
}

static void __exit mrc_exit(void)
{
	mrc_socket_exit();
	/* Replays NETDEV_UNREGISTER: every plane goes, with its event. */
	mrc_plane_exit();
	mrc_netlink_exit();
	mrc_pernet_exit();
	/* Drains connection kills still queued. */
	mrc_conn_exit();
	/* Drains offload set-ups still queued. */
	mrc_offload_exit();
	/* Planes, profiles and connections are freed by RCU callbacks here. */
	rcu_barrier();
	mrc_mem_module_exit();
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MRC: Multipath Reliable Connection transport");
MODULE_VERSION(MRC_MODULE_VERSION);
