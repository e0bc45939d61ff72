/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the data path (trace system "mrc"): one per packet at TX,
 * RX, ACK, loss and NACK, and one per EV state change. eBPF telemetry
 * attaches here; field names match struct mrc_core_trace_info. @netns is
 * the namespace's inode number: tracepoints are global, telemetry is not.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mrc

#if !defined(_MRC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MRC_TRACE_H

#include <linux/tracepoint.h>

#include "core/mrc_core.h"

DECLARE_EVENT_CLASS(mrc_pkt_class,
	TP_PROTO(u32 netns, u32 conn, const struct mrc_core_trace_info *info),
	TP_ARGS(netns, conn, info),
	TP_STRUCT__entry(
		__field(u32, netns)
		__field(u32, conn)
		__field(u32, psn)
		__field(u32, plane)
		__field(u32, ev)
		__field(u32, len)
		__field(u32, rtt_us)
		__field(u32, arg)
		__field(bool, ce)
	),
	TP_fast_assign(
		__entry->netns = netns;
		__entry->conn = conn;
		__entry->psn = info->psn;
		__entry->plane = info->plane;
		__entry->ev = info->ev;
		__entry->len = info->len;
		__entry->rtt_us = info->rtt_us;
		__entry->arg = info->arg;
		__entry->ce = info->ce;
	),
	TP_printk("netns=%u conn=%u psn=%u plane=%u ev=%u len=%u rtt_us=%u arg=%u ce=%d",
		  __entry->netns, __entry->conn, __entry->psn, __entry->plane,
		  __entry->ev, __entry->len, __entry->rtt_us, __entry->arg, __entry->ce)
);

DEFINE_EVENT(mrc_pkt_class, mrc_tx,
	TP_PROTO(u32 netns, u32 conn, const struct mrc_core_trace_info *info),
	TP_ARGS(netns, conn, info));
DEFINE_EVENT(mrc_pkt_class, mrc_rx,
	TP_PROTO(u32 netns, u32 conn, const struct mrc_core_trace_info *info),
	TP_ARGS(netns, conn, info));
DEFINE_EVENT(mrc_pkt_class, mrc_ack,
	TP_PROTO(u32 netns, u32 conn, const struct mrc_core_trace_info *info),
	TP_ARGS(netns, conn, info));
DEFINE_EVENT(mrc_pkt_class, mrc_loss,
	TP_PROTO(u32 netns, u32 conn, const struct mrc_core_trace_info *info),
	TP_ARGS(netns, conn, info));
DEFINE_EVENT(mrc_pkt_class, mrc_nack,
	TP_PROTO(u32 netns, u32 conn, const struct mrc_core_trace_info *info),
	TP_ARGS(netns, conn, info));

TRACE_EVENT(mrc_ev_state,
	TP_PROTO(u32 netns, u32 conn, u32 index, u32 ev, u32 plane, u8 state),
	TP_ARGS(netns, conn, index, ev, plane, state),
	TP_STRUCT__entry(
		__field(u32, netns)
		__field(u32, conn)
		__field(u32, index)
		__field(u32, ev)
		__field(u32, plane)
		__field(u8, state)
	),
	TP_fast_assign(
		__entry->netns = netns;
		__entry->conn = conn;
		__entry->index = index;
		__entry->ev = ev;
		__entry->plane = plane;
		__entry->state = state;
	),
	TP_printk("netns=%u conn=%u index=%u ev=%u plane=%u state=%u",
		  __entry->netns, __entry->conn,
		  __entry->index, __entry->ev, __entry->plane, __entry->state)
);

#endif /* _MRC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH conn
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
