/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters, one pattern for all: an enum of fields, a table of stable
 * names (tests and tools refer to counters by them), per-cpu storage as
 * a struct with `unsigned long mibs[MAX]` added to with this_cpu ops from
 * any context, and MRC_MIB_FOLD() to read a field. The netns table is
 * here (mib.c), the plane table in ctl/plane.[ch]. A connection's
 * counters are the core's (struct mrc_core_stats, struct
 * mrc_core_ev_info), read under its lock; ctl/nl_conn.c names them with
 * tables of the same kind.
 */
#ifndef __MRC_MIB_H
#define __MRC_MIB_H

#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "core/wire.h"

struct net;

enum mrc_mib_field {
	MRC_MIB_NUM = 0,
	MRC_MIB_SOCKCREATE,	/* AF_MRC sockets created */
	MRC_MIB_SOCKREJECT,	/* socket() refused: bad type or protocol */
	MRC_MIB_SOCKRELEASE,	/* AF_MRC sockets released */
	MRC_MIB_PLANENETDEVGONE, /* planes removed because their netdev went */
	MRC_MIB_CONNOPEN,	/* connect() started a handshake */
	MRC_MIB_CONNACCEPT,	/* a listener made a connection from a SYN */
	MRC_MIB_CONNRESET,	/* connections reset (RST sent or received) */
	MRC_MIB_CONNTIMEOUT,	/* connections that hit their user timeout */
	MRC_MIB_TXERR,		/* packets that could not be sent */
	MRC_MIB_TXRSTNOCONN,	/* RSTs answering packets for no connection */
	MRC_MIB_CONNREFUSEDICMP, /* connect()s refused by ICMP port unreachable */
	MRC_MIB_CONNLOCAL,	/* connect()s to an address of this host */
	MRC_MIB_LISTENTCPACCEPT, /* TCP clients accepted by MRC listeners */
	MRC_MIB_CONNECTTCP,	/* connect()s that fell back to TCP */
	MRC_MIB_CONNECTTCPFAIL,	/* ... whose TCP socket could not start */
	MRC_MIB_RXBACKLOG,	/* datagrams a process of their socket took */
	MRC_MIB_TIMERDEFERRED,	/* timer expiries left to that process */
	MRC_MIB_SNDMEMWAIT,	/* sends that waited: the pool refused memory */
	MRC_MIB_RCVMEMOVER,	/* deliveries the pool had no room for */
	MRC_MIB_MEMPRESSURES,	/* times a socket put the pool under pressure */
	MRC_MIB_TXDATAPKTS,	/* DATA packets connections handed to a plane */
	MRC_MIB_PROBESTX,	/* EV probes connections handed to a plane */
	/* received packets dropped, one counter per enum mrc_drop_reason */
	MRC_MIB_RXDROPSHORT,
	MRC_MIB_RXDROPVERSION,
	MRC_MIB_RXDROPTYPE,
	MRC_MIB_RXDROPLENGTH,
	MRC_MIB_RXDROPMALFORMED,
	MRC_MIB_RXDROPNOCONN,
	MRC_MIB_RXDROPTOKEN,
	MRC_MIB_RXDROPSTATE,
	MRC_MIB_RXDROPPSNWINDOW,
	MRC_MIB_RXDROPDUPLICATE,
	MRC_MIB_RXDROPNOBUFFER,
	MRC_MIB_RXDROPPLANE,
	MRC_MIB_RXDROPACK,
	MRC_MIB_RXDROPCSUM,
	__MRC_MIB_MAX
};

/* MRC_MIB_RXDROP_FIRST + reason is the counter of a drop reason. */
#define MRC_MIB_RXDROP_FIRST (MRC_MIB_RXDROPSHORT - MRC_DROP_SHORT)
static_assert(MRC_MIB_RXDROP_FIRST + MRC_DROP_MAX == __MRC_MIB_MAX);

#define MRC_MIB_MAX __MRC_MIB_MAX

struct mrc_mib {
	unsigned long mibs[MRC_MIB_MAX];
};

/* The sum over CPUs of field @field of the per-cpu MIB table @pcpu. */
#define MRC_MIB_FOLD(pcpu, field) ({					\
	u64 __sum = 0;							\
	int __cpu;							\
									\
	for_each_possible_cpu(__cpu)					\
		__sum += per_cpu_ptr(pcpu, __cpu)->mibs[field];		\
	__sum;								\
})

void mrc_mib_inc(struct net *net, enum mrc_mib_field field);
u64 mrc_mib_read(struct net *net, enum mrc_mib_field field);
const char *mrc_mib_name(enum mrc_mib_field field);
void mrc_mib_seq_show(struct seq_file *seq, struct net *net);

#endif /* __MRC_MIB_H */
