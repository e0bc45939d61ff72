// SPDX-License-Identifier: GPL-2.0
/* Instantiates the tracepoints declared in trace.h. */
#define CREATE_TRACE_POINTS
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "conn/trace.h"
