// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module for make check-debug: commits one deliberate bug, chosen
 * by the "bug" parameter, when loaded, so the debug kernel's self-test can
 * prove that each of its detectors reports it. Loaded only in a guest that
 * runs the debug kernel (vm-test/debug/selftest.sh), never on a host.
 *
 *   uaf        read a kmalloc'd object after kfree()          -> KASAN
 *   leak       kmalloc() an object and lose the pointer        -> kmemleak
 *   lockorder  take A then B, later B then A (no deadlock: the
 *              two orders never overlap, lockdep still sees it) -> lockdep
 *   sleep      GFP_KERNEL allocation under a spinlock          -> might_sleep
 *   shift      shift a 32-bit value by 40                      -> UBSAN
 *   timer      free an object whose timer is still pending     -> debugobjects
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "uaf, leak, lockorder, sleep, shift or timer");

/* Results go to a global (with *_ONCE) so the compiler keeps the bugs. */
static int mrc_vmtest_sink;

static noinline void mrc_vmtest_uaf(void)
{
	int *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	p[2] = 1;
	kfree(p);
	WRITE_ONCE(mrc_vmtest_sink, READ_ONCE(p[2]));
}

static noinline void mrc_vmtest_leak(void)
{
	char *p = kmalloc(128, GFP_KERNEL);

	if (!p)
		return;
	strscpy(p, "mrc_vmtest_bugs: leaked on purpose", 128);
	/* The only reference goes out of scope here. */
}

static DEFINE_MUTEX(mrc_vmtest_a);
static DEFINE_MUTEX(mrc_vmtest_b);

static noinline void mrc_vmtest_lockorder(void)
{
	mutex_lock(&mrc_vmtest_a);
	mutex_lock(&mrc_vmtest_b);
	mutex_unlock(&mrc_vmtest_b);
	mutex_unlock(&mrc_vmtest_a);

	mutex_lock(&mrc_vmtest_b);
	mutex_lock(&mrc_vmtest_a);
	mutex_unlock(&mrc_vmtest_a);
	mutex_unlock(&mrc_vmtest_b);
}

static DEFINE_SPINLOCK(mrc_vmtest_spin);

static noinline void mrc_vmtest_sleep(void)
{
	spin_lock(&mrc_vmtest_spin);
	kfree(kmalloc(16, GFP_KERNEL));
	spin_unlock(&mrc_vmtest_spin);
}

static noinline void mrc_vmtest_shift(void)
{
	int by = 40 + READ_ONCE(mrc_vmtest_sink);
	u32 one = 1;

	WRITE_ONCE(mrc_vmtest_sink, one << by);
}

struct mrc_vmtest_timed {
	struct timer_list timer;
};

static void mrc_vmtest_timer_fn(struct timer_list *t)
{
}

static noinline void mrc_vmtest_timer(void)
{
	struct mrc_vmtest_timed *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return;
	timer_setup(&o->timer, mrc_vmtest_timer_fn, 0);
	mod_timer(&o->timer, jiffies + 3600 * HZ);
	/* debugobjects reports the active timer and deactivates it. */
	kfree(o);
}

static const struct {
	const char *name;
	void (*commit)(void);
} mrc_vmtest_bugs[] = {
	{ "uaf", mrc_vmtest_uaf },
	{ "leak", mrc_vmtest_leak },
	{ "lockorder", mrc_vmtest_lockorder },
	{ "sleep", mrc_vmtest_sleep },
	{ "shift", mrc_vmtest_shift },
	{ "timer", mrc_vmtest_timer },
};

static int __init mrc_vmtest_bugs_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(mrc_vmtest_bugs); i++) {
		if (!strcmp(bug, mrc_vmtest_bugs[i].name)) {
			pr_info("mrc_vmtest_bugs: committing \"%s\"\n", bug);
			mrc_vmtest_bugs[i].commit();
			return 0;
		}
	}
	pr_err("mrc_vmtest_bugs: unknown bug \"%s\"\n", bug);
	return -EINVAL;
}

static void __exit mrc_vmtest_bugs_exit(void)
{
}

module_init(mrc_vmtest_bugs_init);
module_exit(mrc_vmtest_bugs_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MRC make check-debug self-test: deliberate kernel bugs");
