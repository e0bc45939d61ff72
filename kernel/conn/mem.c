// SPDX-License-Identifier: GPL-2.0
/*
 * Per-netns memory accounting of connections (mem.h) and its sysctl,
 * net.mrc.mem_max: the bytes a netns's connections may hold, 0 for no
 * limit; the default is half of RAM, so no single netns can take it all.
 * /proc/net/mrc_stat shows the bytes in use (MemBytes), the limit
 * (MemMax) and how many charges the limit refused (MemRefused); also
 * the host's socket memory pool in pages (SockMemPages) and whether it
 * is under pressure (SockMemPressure).
 * The table also holds net.mrc.mem, the socket memory pool's limits
 * (sock/mem.c): one for the host, as net.ipv4.tcp_mem, so writable in
 * the initial netns only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>

#include "pernet.h"
#include "conn/conn.h"
#include "conn/mem.h"
#include "core/mrc_core.h"
#include "sock/sock.h"

/* Every netns's bytes together: zero again once the module is unused. */
static atomic_long_t mrc_mem_all = ATOMIC_LONG_INIT(0);

/*
 * Charge only what fits: adding first and taking back an excess let
 * MemBytes show more than the limit for a moment (a sampler saw 60016
 * of 60000) and could refuse two charges of which one fitted.
 */
bool mrc_mem_charge(struct mrc_net *mn, size_t bytes)
{
	unsigned long max = READ_ONCE(mn->mem_max);
	long cur = atomic_long_read(&mn->mem);

	do {
		if (max && (unsigned long)cur + bytes > max) {
			atomic_long_inc(&mn->mem_refused);
			return false;
		}
	} while (!atomic_long_try_cmpxchg(&mn->mem, &cur, cur + bytes));
	atomic_long_add(bytes, &mrc_mem_all);
	return true;
}

void mrc_mem_uncharge(struct mrc_net *mn, size_t bytes)
{
	atomic_long_sub(bytes, &mn->mem);
	atomic_long_sub(bytes, &mrc_mem_all);
}

/* kmalloc() charged to @mn by the slab object's real size. */
void *mrc_mem_alloc(struct mrc_net *mn, size_t size, gfp_t gfp)
{
	void *ptr = kmalloc(size, gfp | __GFP_NOWARN);

	if (ptr && !mrc_mem_charge(mn, ksize(ptr))) {
		kfree(ptr);
		ptr = NULL;
	}
	return ptr;
}

void mrc_mem_free(struct mrc_net *mn, void *ptr)
{
	if (!ptr)
		return;
	mrc_mem_uncharge(mn, ksize(ptr));
	kfree(ptr);
}

/*
 * struct mrc_core from a cache of its own: its size (about 2.6 KB) would
 * take a 4 KiB kmalloc() object, and an idle connection is mostly its
 * core. Charged by the cache's object size.
 */
static struct kmem_cache *mrc_core_cache;

/*
 * struct mrc_conn (about 390 bytes) from a cache of its own rather than a
 * 512-byte kmalloc() object; its memory goes in an RCU callback, so the
 * cache goes after the module's rcu_barrier() (mrc_mem_module_exit()).
 * The caller charges it (mrc_mem_charge()).
 */
static struct kmem_cache *mrc_conn_cache;

void *mrc_mem_conn_zalloc(size_t size)
{
	if (WARN_ON_ONCE(size != kmem_cache_size(mrc_conn_cache)))
		return NULL;
	return kmem_cache_zalloc(mrc_conn_cache, GFP_ATOMIC);
}

void mrc_mem_conn_free(void *conn)
{
	kmem_cache_free(mrc_conn_cache, conn);
}

void *mrc_mem_core_alloc(struct mrc_net *mn)
{
	void *core;

	if (!mrc_mem_charge(mn, kmem_cache_size(mrc_core_cache)))
		return NULL;
	core = kmem_cache_alloc(mrc_core_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!core)
		mrc_mem_uncharge(mn, kmem_cache_size(mrc_core_cache));
	return core;
}

void mrc_mem_core_free(struct mrc_net *mn, void *core)
{
	kmem_cache_free(mrc_core_cache, core);
	mrc_mem_uncharge(mn, kmem_cache_size(mrc_core_cache));
}

void mrc_mem_seq_show(struct seq_file *seq, struct mrc_net *mn)
{
	seq_printf(seq, "MemBytes %ld\n", atomic_long_read(&mn->mem));
	seq_printf(seq, "MemMax %lu\n", READ_ONCE(mn->mem_max));
	seq_printf(seq, "MemRefused %ld\n", atomic_long_read(&mn->mem_refused));
	/* the host's socket memory pool (sock/mem.c), not the netns's */
	seq_printf(seq, "SockMemPages %ld\n", mrc_sock_mem_pages());
	seq_printf(seq, "SockMemPressure %d\n", mrc_sock_mem_pressure());
}

/* net.mrc's sysctls; peer_paths is conn/peer.h's switch, early_data
 * sock/sock.h's (MRC_EARLY_DATA_*) and mem sock/mem.c's, kept here so
 * that the netns has one table.
 */
static const struct ctl_table mrc_mem_sysctl[] = {
	{
		.procname	= "mem_max",
		.maxlen		= sizeof(unsigned long),
		.mode		= 0644,
		.proc_handler	= proc_doulongvec_minmax,
	},
	{
		.procname	= "peer_paths",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "early_data",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_THREE,
	},
	{
		.procname	= "mem",
		.maxlen		= sizeof(sysctl_mrc_mem),
		.mode		= 0644,
		.proc_handler	= proc_doulongvec_minmax,
	},
	{ }
};

int mrc_mem_net_init(struct mrc_net *mn)
{
	struct ctl_table *table;

	atomic_long_set(&mn->mem, 0);
	atomic_long_set(&mn->mem_refused, 0);
	mn->mem_max = (totalram_pages() << PAGE_SHIFT) / 2;
	mn->early_data = MRC_EARLY_DATA_CONNECT | MRC_EARLY_DATA_ACCEPT;
	table = kmemdup(mrc_mem_sysctl, sizeof(mrc_mem_sysctl), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	table[0].data = &mn->mem_max;
	table[1].data = &mn->peer_paths;
	table[2].data = &mn->early_data;
	table[3].data = sysctl_mrc_mem;
	if (!net_eq(mn->net, &init_net))
		table[3].mode = 0444;
	mn->sysctl = register_net_sysctl(mn->net, "net/mrc", table);
	if (!mn->sysctl) {
		kfree(table);
		return -ENOMEM;
	}
	return 0;
}

void mrc_mem_net_exit(struct mrc_net *mn)
{
	struct ctl_table *table = mn->sysctl->ctl_table_arg;

	unregister_net_sysctl_table(mn->sysctl);
	kfree(table);
}

/* Everything was freed by now (rcu_barrier()): anything left leaked. */
int mrc_mem_module_init(void)
{
	mrc_core_cache = kmem_cache_create("mrc_core", mrc_core_size(), 0,
					   SLAB_ACCOUNT, NULL);
	mrc_conn_cache = KMEM_CACHE(mrc_conn, SLAB_ACCOUNT);
	if (!mrc_core_cache || !mrc_conn_cache) {
		kmem_cache_destroy(mrc_core_cache);
		kmem_cache_destroy(mrc_conn_cache);
		return -ENOMEM;
	}
	return 0;
}

void mrc_mem_module_exit(void)
{
	long left = atomic_long_read(&mrc_mem_all);

	WARN(left, "mrc: %ld bytes of connection memory leaked\n", left);
	kmem_cache_destroy(mrc_core_cache);
	kmem_cache_destroy(mrc_conn_cache);
}
