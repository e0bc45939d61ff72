// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: raises one real WARN_ON() when loaded, so the guest
 * runner's own test can prove that a kernel warning fails a run.
 * Never loaded outside vm-test/tests.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init mrc_vmtest_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit mrc_vmtest_warn_exit(void)
{
}

module_init(mrc_vmtest_warn_init);
module_exit(mrc_vmtest_warn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MRC guest runner self-test: WARN_ON at load");
