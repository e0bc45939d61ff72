// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_sim user interface, in debugfs:
 *
 * /sys/kernel/debug/mrc_sim/
 *   new_device		w: "ID IFNAME": create sim<ID> on IFNAME (the
 *			writer's network namespace)
 *   del_device		w: "ID": remove sim<ID> (driver unbind)
 *   sim<ID>/
 *     ifname		r: the netdev's name
 *     counters		r: "name value" lines: hook calls, then traffic
 *     log		r: control-hook calls, oldest first; w: clear
 *     fail_<hook>	rw: non-zero N: <hook> fails with -N
 *     ev_table_size, max_conns, features, cc_algos
 *			rw: what the caps hook reports
 *     report_error	w: errno N: report error -N to mrc
 *     reset		w: the device resets (loses its connections)
 *
 * Lifetime: a sim's directory is removed first thing in its teardown;
 * debugfs waits for the file operations in flight, so no handler here
 * runs on a sim being freed. The handlers of sim<ID>/ must not take RTNL
 * (the teardown holds it while it waits); new_device and del_device do,
 * and are removed at module exit before the devices go.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "mrc_sim.h"

static struct dentry *mrc_sim_ddir;
static struct dentry *mrc_sim_new_dentry;
static struct dentry *mrc_sim_del_dentry;

/* "ID IFNAME" is short; anything longer is not a valid request. */
#define MRC_SIM_CMD_MAX	64

static ssize_t mrc_sim_new_device_write(struct file *file,
					const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	char *buf, *args, *id_str, *name;
	u32 id;
	int err;

	if (count >= MRC_SIM_CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	err = -EINVAL;
	args = strim(buf);
	id_str = strsep(&args, " \t");
	if (!args)
		goto out;
	name = skip_spaces(args);
	if (kstrtou32(id_str, 10, &id) || strpbrk(name, " \t\n") ||
	    !dev_valid_name(name))
		goto out;
	err = mrc_sim_dev_new(id, name);
out:
	kfree(buf);
	return err ? err : count;
}

static const struct file_operations mrc_sim_new_device_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= mrc_sim_new_device_write,
	.llseek	= generic_file_llseek,
};

static ssize_t mrc_sim_del_device_write(struct file *file,
					const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	u32 id;
	int err;

	err = kstrtou32_from_user(ubuf, count, 10, &id);
	if (err)
		return err;
	err = mrc_sim_dev_del_id(id);
	return err ? err : count;
}

static const struct file_operations mrc_sim_del_device_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= mrc_sim_del_device_write,
	.llseek	= generic_file_llseek,
};

static int mrc_sim_ifname_show(struct seq_file *m, void *v)
{
	struct mrc_sim_dev *sim = m->private;
	char name[IFNAMSIZ];

	/* A rename may race: copy, then terminate. */
	memcpy(name, sim->netdev->name, sizeof(name));
	name[IFNAMSIZ - 1] = '\0';
	seq_printf(m, "%s\n", name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mrc_sim_ifname);

static int mrc_sim_counters_show(struct seq_file *m, void *v)
{
	struct mrc_sim_dev *sim = m->private;
	int i;

	for (i = 0; i < MRC_SIM_NHOOKS; i++)
		seq_printf(m, "%s %lld\n", mrc_sim_hook_names[i],
			   atomic64_read(&sim->calls[i]));
	seq_printf(m, "tx_pkts %lld\n", atomic64_read(&sim->tx_pkts));
	seq_printf(m, "tx_bytes %lld\n", atomic64_read(&sim->tx_bytes));
	seq_printf(m, "rx_pkts %lld\n", atomic64_read(&sim->rx_pkts));
	seq_printf(m, "rx_bytes %lld\n", atomic64_read(&sim->rx_bytes));
	seq_printf(m, "errors %lld\n", atomic64_read(&sim->errors));
	seq_printf(m, "conns %d\n", atomic_read(&sim->nconns));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mrc_sim_counters);

static int mrc_sim_log_open(struct inode *inode, struct file *file)
{
	int err;

	err = seq_open(file, &mrc_sim_log_seq_ops);
	if (err)
		return err;
	((struct seq_file *)file->private_data)->private = inode->i_private;
	return 0;
}

/* Any write clears the log. */
static ssize_t mrc_sim_log_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct mrc_sim_dev *sim = m->private;

	mrc_sim_log_clear(&sim->log);
	return count;
}

static const struct file_operations mrc_sim_log_fops = {
	.owner		= THIS_MODULE,
	.open		= mrc_sim_log_open,
	.read		= seq_read,
	.write		= mrc_sim_log_write,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

static ssize_t mrc_sim_report_error_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct mrc_sim_dev *sim = file->private_data;
	u32 err;
	int ret;

	ret = kstrtou32_from_user(ubuf, count, 0, &err);
	if (ret)
		return ret;
	if (!err || err > MAX_ERRNO)
		return -EINVAL;
	mrc_sim_report_error(sim, -(int)err);
	return count;
}

static const struct file_operations mrc_sim_report_error_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= mrc_sim_report_error_write,
	.llseek	= generic_file_llseek,
};

static ssize_t mrc_sim_reset_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct mrc_sim_dev *sim = file->private_data;

	mrc_sim_reset(sim);
	return count;
}

static const struct file_operations mrc_sim_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= mrc_sim_reset_write,
	.llseek	= generic_file_llseek,
};

void mrc_sim_dev_debugfs_init(struct mrc_sim_dev *sim)
{
	char name[sizeof("sim") + 10];
	char fail[32];
	int i;

	snprintf(name, sizeof(name), "sim%u", sim->id);
	sim->ddir = debugfs_create_dir(name, mrc_sim_ddir);
	if (IS_ERR(sim->ddir))
		return;	/* the device works, it just cannot be watched */

	debugfs_create_file("ifname", 0400, sim->ddir, sim,
			    &mrc_sim_ifname_fops);
	debugfs_create_file("counters", 0400, sim->ddir, sim,
			    &mrc_sim_counters_fops);
	debugfs_create_file("log", 0600, sim->ddir, sim, &mrc_sim_log_fops);
	for (i = 0; i < MRC_SIM_NHOOKS; i++) {
		if (!mrc_sim_hook_failable(i))
			continue;
		snprintf(fail, sizeof(fail), "fail_%s", mrc_sim_hook_names[i]);
		debugfs_create_u32(fail, 0600, sim->ddir, &sim->fail[i]);
	}
	debugfs_create_u32("ev_table_size", 0600, sim->ddir,
			   &sim->ev_table_size);
	debugfs_create_u32("max_conns", 0600, sim->ddir, &sim->max_conns);
	debugfs_create_u32("features", 0600, sim->ddir, &sim->features);
	debugfs_create_u32("cc_algos", 0600, sim->ddir, &sim->cc_algos);
	debugfs_create_file("report_error", 0200, sim->ddir, sim,
			    &mrc_sim_report_error_fops);
	debugfs_create_file("reset", 0200, sim->ddir, sim,
			    &mrc_sim_reset_fops);
}

void mrc_sim_dev_debugfs_exit(struct mrc_sim_dev *sim)
{
	debugfs_remove_recursive(sim->ddir);
	sim->ddir = NULL;
}

int mrc_sim_debugfs_init(void)
{
	mrc_sim_ddir = debugfs_create_dir(MRC_SIM_DRV_NAME, NULL);
	if (IS_ERR(mrc_sim_ddir))
		return PTR_ERR(mrc_sim_ddir);
	mrc_sim_new_dentry = debugfs_create_file("new_device", 0200,
						 mrc_sim_ddir, NULL,
						 &mrc_sim_new_device_fops);
	mrc_sim_del_dentry = debugfs_create_file("del_device", 0200,
						 mrc_sim_ddir, NULL,
						 &mrc_sim_del_device_fops);
	return 0;
}

/* First thing at module exit: no device is created or removed after. */
void mrc_sim_debugfs_exit_ctl(void)
{
	debugfs_remove(mrc_sim_new_dentry);
	debugfs_remove(mrc_sim_del_dentry);
}

void mrc_sim_debugfs_exit(void)
{
	debugfs_remove_recursive(mrc_sim_ddir);
}
