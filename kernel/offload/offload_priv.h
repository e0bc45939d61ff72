/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by registry.c (registry, planes, reports) and
 * offload_conn.c (connections and the data path). Locking in offload.h.
 */
#ifndef __MRC_OFFLOAD_PRIV_H
#define __MRC_OFFLOAD_PRIV_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/mrc_offload.h>

#include "ctl/plane.h"

extern struct mutex mrc_offload_lock;
extern struct list_head mrc_offload_devs;	/* under mrc_offload_lock */
extern struct workqueue_struct *mrc_offload_wq;
/* Planes with a device: connections skip the set-up work while 0. */
extern atomic_t mrc_offload_planes;

/*
 * struct mrc_offload_dev - a registered offload device.
 * @node:	in mrc_offload_devs
 * @dev:	the driver's netdev (the driver keeps it until unregister)
 * @ops:	the driver's hooks
 * @driver:	copy of ops->driver, readable after the driver left
 * @caps:	from the caps hook; written under mrc_offload_lock
 * @plane:	the plane on @dev, or NULL (mrc_offload_lock)
 * @rx_plane:	@plane while RX hand-off is on; RCU for mrc_offload_rx()
 * @steered_port: the UDP port rx_steer was given
 * @bindings:	struct mrc_offload_binding on this device (mrc_offload_lock)
 * @nconns:	length of @bindings
 * @failed:	an error was reported; no new bindings until a reset
 * @report_*:	a pending report, queued by any context (under @report_lock)
 * @dead:	unregistering: reports are ignored (under @report_lock)
 */
struct mrc_offload_dev {
	struct list_head		node;
	struct net_device		*dev;
	const struct mrc_offload_ops	*ops;
	char				driver[32];
	struct mrc_offload_caps		caps;
	struct mrc_plane		*plane;
	struct mrc_plane __rcu		*rx_plane;
	struct list_head		bindings;
	u32				nconns;
	bool				failed;
	u16				steered_port;
	spinlock_t			report_lock;	/* report_*, IRQ-safe */
	bool				report_pending;
	bool				dead;
	u8				report_what;
	const char			*report_hook;
	int				report_err;
	struct work_struct		report_work;
	struct rcu_head			rcu;
};

/*
 * struct mrc_offload_binding - one connection on one device.
 * @slot_of:	connection EV index -> slot in the device's EV table
 */
struct mrc_offload_binding {
	struct list_head		node;
	struct mrc_offload_dev		*od;
	struct mrc_conn			*conn;
	struct mrc_plane		*pl;
	void				*handle;
	u16				*slot_of;
};

void mrc_offload_hook_failed(struct mrc_plane *pl, const char *hook, int err);
void mrc_offload_queue_report(struct mrc_offload_dev *od, u8 what,
			      const char *hook, int err);
void mrc_offload_binding_free(struct mrc_offload_binding *b);

#endif /* __MRC_OFFLOAD_PRIV_H */
