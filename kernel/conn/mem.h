/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory of MRC connections, accounted per network namespace: every
 * struct mrc_conn and every allocation of its protocol core is charged to
 * the connection's netns. Past net.mrc.mem_max a charge fails: a new
 * connection is refused (ENOMEM) and a live one gets back-pressure from
 * its core (a smaller window, NO_BUFFER NACKs), never lost data. The
 * module-wide total must be zero again when the module goes.
 *
 * Locking: none; the counters are atomic and the limit is read once per
 * charge (a sysctl write races benignly with charges in flight).
 */
#ifndef __MRC_MEM_H
#define __MRC_MEM_H

#include <linux/types.h>

struct mrc_net;
struct seq_file;

bool mrc_mem_charge(struct mrc_net *mn, size_t bytes);
void mrc_mem_uncharge(struct mrc_net *mn, size_t bytes);
void *mrc_mem_alloc(struct mrc_net *mn, size_t size, gfp_t gfp);
void mrc_mem_free(struct mrc_net *mn, void *ptr);
void *mrc_mem_core_alloc(struct mrc_net *mn);
void *mrc_mem_conn_zalloc(size_t size);
void mrc_mem_conn_free(void *conn);
void mrc_mem_core_free(struct mrc_net *mn, void *core);
void mrc_mem_seq_show(struct seq_file *seq, struct mrc_net *mn);

int mrc_mem_net_init(struct mrc_net *mn);
void mrc_mem_net_exit(struct mrc_net *mn);
int mrc_mem_module_init(void);
void mrc_mem_module_exit(void);

#endif /* __MRC_MEM_H */
