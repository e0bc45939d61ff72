/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-netns MRC counters: one enum, one stable name per entry (mib.c).
 * Tests and tools refer to the counters by these names.
 */
#ifndef __MRC_MIB_H
#define __MRC_MIB_H

#include <linux/percpu.h>
#include <linux/seq_file.h>

struct net;

enum mrc_mib_field {
	MRC_MIB_NUM = 0,
	MRC_MIB_SOCKCREATE,	/* AF_MRC sockets created */
	MRC_MIB_SOCKREJECT,	/* socket() refused: bad type or protocol */
	MRC_MIB_SOCKRELEASE,	/* AF_MRC sockets released */
	MRC_MIB_PLANENETDEVGONE, /* planes removed because their netdev went */
	__MRC_MIB_MAX
};

#define MRC_MIB_MAX __MRC_MIB_MAX

struct mrc_mib {
	unsigned long mibs[MRC_MIB_MAX];
};

void mrc_mib_inc(struct net *net, enum mrc_mib_field field);
u64 mrc_mib_read(struct net *net, enum mrc_mib_field field);
const char *mrc_mib_name(enum mrc_mib_field field);
void mrc_mib_seq_show(struct seq_file *seq, struct net *net);

#endif /* __MRC_MIB_H */
