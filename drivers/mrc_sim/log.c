// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_sim hook log: the control-hook calls of one device, in order, as
 * text lines in a bounded ring (the last MRC_SIM_LOG_LINES). Written from
 * any context, read through seq_file ("log" in debugfs). See struct
 * mrc_sim_log for the locking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#include "mrc_sim.h"

static_assert((MRC_SIM_LOG_LINES & (MRC_SIM_LOG_LINES - 1)) == 0);

static char *mrc_sim_log_line(struct mrc_sim_log *log, u64 n)
{
	return log->lines[n & (MRC_SIM_LOG_LINES - 1)];
}

int mrc_sim_log_init(struct mrc_sim_log *log)
{
	spin_lock_init(&log->lock);
	log->lines = vmalloc(array_size(MRC_SIM_LOG_LINES,
					MRC_SIM_LOG_LINE_LEN));
	return log->lines ? 0 : -ENOMEM;
}

void mrc_sim_log_free(struct mrc_sim_log *log)
{
	vfree(log->lines);
	log->lines = NULL;
}

void mrc_sim_log(struct mrc_sim_dev *sim, const char *fmt, ...)
{
	struct mrc_sim_log *log = &sim->log;
	unsigned long flags;
	va_list args;

	spin_lock_irqsave(&log->lock, flags);
	va_start(args, fmt);
	vscnprintf(mrc_sim_log_line(log, log->next), MRC_SIM_LOG_LINE_LEN,
		   fmt, args);
	va_end(args);
	log->next++;
	if (log->next - log->first > MRC_SIM_LOG_LINES)
		log->first = log->next - MRC_SIM_LOG_LINES;
	spin_unlock_irqrestore(&log->lock, flags);
}

void mrc_sim_log_clear(struct mrc_sim_log *log)
{
	unsigned long flags;

	spin_lock_irqsave(&log->lock, flags);
	log->first = log->next;
	spin_unlock_irqrestore(&log->lock, flags);
}

/*
 * The seq_file position is a line number, so a read that takes several
 * calls neither repeats nor skips a line still in the ring. The lock is
 * held from start to stop (show only formats into the seq buffer).
 */
static void *mrc_sim_log_seq_start(struct seq_file *m, loff_t *pos)
	__acquires(&log->lock)
{
	struct mrc_sim_dev *sim = m->private;
	struct mrc_sim_log *log = &sim->log;

	spin_lock_irq(&log->lock);
	if (*pos < log->first)
		*pos = log->first;
	return *pos < log->next ? mrc_sim_log_line(log, *pos) : NULL;
}

static void *mrc_sim_log_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct mrc_sim_dev *sim = m->private;
	struct mrc_sim_log *log = &sim->log;

	++*pos;
	return *pos < log->next ? mrc_sim_log_line(log, *pos) : NULL;
}

static void mrc_sim_log_seq_stop(struct seq_file *m, void *v)
	__releases(&log->lock)
{
	struct mrc_sim_dev *sim = m->private;

	spin_unlock_irq(&sim->log.lock);
}

static int mrc_sim_log_seq_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", (const char *)v);
	return 0;
}

const struct seq_operations mrc_sim_log_seq_ops = {
	.start	= mrc_sim_log_seq_start,
	.next	= mrc_sim_log_seq_next,
	.stop	= mrc_sim_log_seq_stop,
	.show	= mrc_sim_log_seq_show,
};
