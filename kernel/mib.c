// SPDX-License-Identifier: GPL-2.0
/*
 * Per-netns MRC counters: increment, fold across CPUs, and the stable
 * name table printed by /proc/net/mrc_stat (and later by netlink).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>

#include "pernet.h"

static const char * const mrc_mib_names[MRC_MIB_MAX] = {
	[MRC_MIB_SOCKCREATE]	= "SockCreate",
	[MRC_MIB_SOCKREJECT]	= "SockReject",
	[MRC_MIB_SOCKRELEASE]	= "SockRelease",
	[MRC_MIB_PLANENETDEVGONE] = "PlaneNetdevGone",
	[MRC_MIB_CONNOPEN]	= "ConnOpen",
	[MRC_MIB_CONNACCEPT]	= "ConnAccept",
	[MRC_MIB_CONNRESET]	= "ConnReset",
	[MRC_MIB_CONNTIMEOUT]	= "ConnTimeout",
	[MRC_MIB_TXERR]		= "TxErr",
	[MRC_MIB_TXRSTNOCONN]	= "TxRstNoConn",
	[MRC_MIB_CONNREFUSEDICMP] = "ConnRefusedIcmp",
	[MRC_MIB_CONNLOCAL]	= "ConnLocal",
	[MRC_MIB_LISTENTCPACCEPT] = "ListenTcpAccept",
	[MRC_MIB_CONNECTTCP] = "ConnectTcp",
	[MRC_MIB_CONNECTTCPFAIL] = "ConnectTcpFail",
	[MRC_MIB_RXBACKLOG]	= "RxBacklog",
	[MRC_MIB_TIMERDEFERRED]	= "TimerDeferred",
	[MRC_MIB_SNDMEMWAIT]	= "SndMemWait",
	[MRC_MIB_RCVMEMOVER]	= "RcvMemOver",
	[MRC_MIB_MEMPRESSURES]	= "MemPressures",
	[MRC_MIB_TXDATAPKTS]	= "TxDataPkts",
	[MRC_MIB_PROBESTX]	= "ProbesTx",
	[MRC_MIB_RXDROPSHORT]	= "RxDropShort",
	[MRC_MIB_RXDROPVERSION]	= "RxDropVersion",
	[MRC_MIB_RXDROPTYPE]	= "RxDropType",
	[MRC_MIB_RXDROPLENGTH]	= "RxDropLength",
	[MRC_MIB_RXDROPMALFORMED] = "RxDropMalformed",
	[MRC_MIB_RXDROPNOCONN]	= "RxDropNoConn",
	[MRC_MIB_RXDROPTOKEN]	= "RxDropToken",
	[MRC_MIB_RXDROPSTATE]	= "RxDropState",
	[MRC_MIB_RXDROPPSNWINDOW] = "RxDropPsnWindow",
	[MRC_MIB_RXDROPDUPLICATE] = "RxDropDuplicate",
	[MRC_MIB_RXDROPNOBUFFER] = "RxDropNoBuffer",
	[MRC_MIB_RXDROPPLANE]	= "RxDropPlane",
	[MRC_MIB_RXDROPACK]	= "RxDropAck",
	[MRC_MIB_RXDROPCSUM]	= "RxDropCsum",
};

void mrc_mib_inc(struct net *net, enum mrc_mib_field field)
{
	if (WARN_ON_ONCE(field <= MRC_MIB_NUM || field >= MRC_MIB_MAX))
		return;
	this_cpu_inc(mrc_pernet(net)->mib->mibs[field]);
}

u64 mrc_mib_read(struct net *net, enum mrc_mib_field field)
{
	return MRC_MIB_FOLD(mrc_pernet(net)->mib, field);
}

const char *mrc_mib_name(enum mrc_mib_field field)
{
	return mrc_mib_names[field];
}

/* One "Name value" line a counter, in enum order. */
void mrc_mib_seq_show(struct seq_file *seq, struct net *net)
{
	int i;

	for (i = MRC_MIB_NUM + 1; i < MRC_MIB_MAX; i++)
		seq_printf(seq, "%s %llu\n", mrc_mib_names[i],
			   mrc_mib_read(net, i));
}
