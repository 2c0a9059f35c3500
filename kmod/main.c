// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlescope: wake-latency datapoints with timestamps taken in the idle path.
 * /dev/idlescope: configuration by ioctl, records by read()/poll(); see idlescope_uapi.h.
 */
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/tsc.h>
#include "idlescope.h"

#define RING_RECORDS 4096
#define READ_BATCH 64

static unsigned int ring_records = RING_RECORDS;
module_param(ring_records, uint, 0444);
MODULE_PARM_DESC(ring_records, "ring buffer capacity in records (power of two, 16..1048576)");

struct idlescope_dev idlescope_dev;

static int validate_config(const struct idlescope_config *c, struct idlescope_dev *d)
{
	if (c->method != IDLESCOPE_METHOD_HRT && c->method != IDLESCOPE_METHOD_TDT)
		return -EINVAL;
	if (c->cpu >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_online(c->cpu))
		return -ENODEV;
	if (c->ldist_min_ns == 0 || c->ldist_min_ns > c->ldist_max_ns)
		return -EINVAL;
	if (c->ldist_max_ns > IDLESCOPE_LDIST_MAX_NS)
		return -ERANGE;
	if ((c->flags & ~IDLESCOPE_CFG_NO_CAUSES) || c->pad)
		return -EINVAL;
	if (c->method == IDLESCOPE_METHOD_TDT && !idlescope_tdt_cpu_ok(c->cpu, d->tdt_why, sizeof(d->tdt_why)))
		return -EOPNOTSUPP;
	return 0;
}

static long do_config(struct idlescope_dev *d, void __user *arg)
{
	struct idlescope_config c;
	int ret;

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	if (d->enabled)
		return -EBUSY;
	ret = validate_config(&c, d);
	if (ret) {
		pr_info("idlescope: configuration refused (%d): cpu %u method %u ldist %llu..%llu ns%s%s\n",
			ret, c.cpu, c.method, c.ldist_min_ns, c.ldist_max_ns,
			ret == -EOPNOTSUPP ? ": tdt: " : "", ret == -EOPNOTSUPP ? d->tdt_why : "");
		return ret;
	}
	if (!d->tsc_hz)
		d->tsc_hz = idlescope_tsc_measure_hz();
	if (!d->tsc_hz)
		return -EIO;
	d->msr_mask = idlescope_counters_probe(c.cpu, &d->has_smi);
	d->tdt_why[0] = '\0';
	d->cfg = c;
	d->causes = !(c.flags & IDLESCOPE_CFG_NO_CAUSES);
	d->configured = true;
	return 0;
}

/*
 * Locks (issue 18: a nested cpus_read_lock() deadlocked against CPU hot-plug). The hot-plug
 * lock is a percpu rwsem: a reader that takes it again while a writer waits deadlocks. So it
 * is held only around the online check and the armer's bind + wake-up, which take no sleeping
 * lock. Tracepoint (un)registration takes cpus_read_lock() itself (static keys, static calls)
 * and tracepoints_mutex; the armer is created by kthreadd; both happen outside it. d->lock is
 * held by the ioctls only; the armer, the probes and the timer never take it, so kthread_stop()
 * and hrtimer_cancel() under it cannot wait on it. The ring and stats spinlocks are leaves.
 */
static int do_enable(struct idlescope_dev *d)
{
	int ret;

	if (!d->configured)
		return -EINVAL;
	if (d->enabled)
		return -EBUSY;
	if (!cpu_online(d->cfg.cpu))
		return -ENODEV;
	memset(&d->stats, 0, sizeof(d->stats));
	idlescope_ring_reset(&d->ring);
	ret = idlescope_probes_register(d);
	if (ret)
		return ret;
	ret = idlescope_event_create(d);
	if (ret)
		goto err_probes;
	cpus_read_lock();
	ret = cpu_online(d->cfg.cpu) ? 0 : -ENODEV;
	if (!ret)
		idlescope_event_launch(d);
	cpus_read_unlock();
	if (ret)
		goto err_event;
	d->enabled = true;
	return 0;
err_event:
	idlescope_event_stop(d);
err_probes:
	idlescope_probes_unregister(d);
	return ret;
}

static void do_disable(struct idlescope_dev *d)
{
	if (!d->enabled)
		return;
	idlescope_probes_unregister(d);
	idlescope_event_stop(d);
	d->enabled = false;
	wake_up_interruptible(&d->ring.wq);
}

static void fill_info(struct idlescope_dev *d, struct idlescope_info *info)
{
	memset(info, 0, sizeof(*info));
	info->abi_version = IDLESCOPE_ABI_VERSION;
	info->record_size = sizeof(struct idlescope_record);
	info->caps = IDLESCOPE_CAP_HRT | IDLESCOPE_CAP_NMI;
	/* why tdt cannot run: on this machine, else why the last CONFIG refused it on its CPU */
	if (idlescope_tdt_available(info->tdt_why, sizeof(info->tdt_why)))
		info->caps |= IDLESCOPE_CAP_TDT;
	if (!info->tdt_why[0])
		strscpy(info->tdt_why, d->tdt_why, sizeof(info->tdt_why));
	if (d->configured && d->has_smi)
		info->caps |= IDLESCOPE_CAP_SMI;
	info->ring_records = d->ring.size;
	info->msr_mask = d->configured ? d->msr_mask : 0;
	info->tsc_hz = d->tsc_hz;
	info->tsc_khz_kernel = tsc_khz;
}

static void fill_stats(struct idlescope_dev *d, struct idlescope_stats *st)
{
	unsigned long flags;
	u64 overflow;

	spin_lock_irqsave(&d->ring.lock, flags);
	overflow = d->ring.overflow;
	spin_unlock_irqrestore(&d->ring.lock, flags);
	spin_lock_irqsave(&d->stats_lock, flags);
	*st = d->stats;
	spin_unlock_irqrestore(&d->stats_lock, flags);
	st->overflow = overflow;
	st->discards[IDLESCOPE_DISCARD_LOST] += overflow;
	st->enabled = d->enabled;
}

static long idlescope_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct idlescope_dev *d = &idlescope_dev;
	void __user *uarg = (void __user *)arg;
	struct idlescope_info info;
	struct idlescope_stats st;
	long ret = 0;

	mutex_lock(&d->lock);
	switch (cmd) {
	case IDLESCOPE_IOC_INFO:
		fill_info(d, &info);
		if (copy_to_user(uarg, &info, sizeof(info)))
			ret = -EFAULT;
		break;
	case IDLESCOPE_IOC_CONFIG:
		ret = do_config(d, uarg);
		break;
	case IDLESCOPE_IOC_ENABLE:
		ret = do_enable(d);
		break;
	case IDLESCOPE_IOC_DISABLE:
		do_disable(d);
		break;
	case IDLESCOPE_IOC_STATS:
		fill_stats(d, &st);
		if (copy_to_user(uarg, &st, sizeof(st)))
			ret = -EFAULT;
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&d->lock);
	return ret;
}

static bool readable(struct idlescope_dev *d)
{
	return !idlescope_ring_empty(&d->ring) || !READ_ONCE(d->enabled) || READ_ONCE(d->cpu_lost);
}

/* Whole records only. Blocks until one is there; 0 (end of file) when disabled and empty.
 * Records leave the ring only once copied out: a fault loses none (EFAULT if nothing was
 * copied, else the records copied so far). */
static ssize_t read_locked(struct idlescope_dev *d, struct file *f, char __user *buf, size_t max)
{
	size_t done = 0;
	u32 n;

	while (done < max) {
		n = idlescope_ring_peek(&d->ring, d->bounce, min_t(size_t, max - done, READ_BATCH));
		if (!n) {
			if (done)
				break;
			if (!READ_ONCE(d->enabled))
				return 0;
			if (READ_ONCE(d->cpu_lost))
				return -ENODEV;
			if (f->f_flags & O_NONBLOCK)
				return -EAGAIN;
			if (wait_event_interruptible(d->ring.wq, readable(d)))
				return -ERESTARTSYS;
			continue;
		}
		if (copy_to_user(buf + done * sizeof(*d->bounce), d->bounce, n * sizeof(*d->bounce))) {
			if (done)
				break;
			return -EFAULT;
		}
		idlescope_ring_advance(&d->ring, n);
		done += n;
	}
	return done * sizeof(*d->bounce);
}

static ssize_t idlescope_read(struct file *f, char __user *buf, size_t count, loff_t *pos)
{
	struct idlescope_dev *d = &idlescope_dev;
	ssize_t ret;

	if (count < sizeof(struct idlescope_record))
		return -EINVAL;
	if (mutex_lock_interruptible(&d->read_lock))
		return -ERESTARTSYS;
	ret = read_locked(d, f, buf, count / sizeof(struct idlescope_record));
	mutex_unlock(&d->read_lock);
	return ret;
}

static __poll_t idlescope_poll(struct file *f, poll_table *wait)
{
	struct idlescope_dev *d = &idlescope_dev;

	poll_wait(f, &d->ring.wq, wait);
	if (!idlescope_ring_empty(&d->ring))
		return EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(d->cpu_lost))
		return EPOLLERR;
	return READ_ONCE(d->enabled) ? 0 : EPOLLHUP;
}

static int idlescope_open(struct inode *inode, struct file *f)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (atomic_cmpxchg(&idlescope_dev.open, 0, 1))
		return -EBUSY;   /* one collector at a time */
	return 0;
}

static int idlescope_release(struct inode *inode, struct file *f)
{
	struct idlescope_dev *d = &idlescope_dev;

	mutex_lock(&d->lock);
	do_disable(d);
	d->configured = false;
	mutex_unlock(&d->lock);
	atomic_set(&d->open, 0);
	return 0;
}

/* .owner pins the module while the device is open: rmmod then fails with EBUSY. */
static const struct file_operations idlescope_fops = {
	.owner = THIS_MODULE,
	.open = idlescope_open,
	.release = idlescope_release,
	.read = idlescope_read,
	.poll = idlescope_poll,
	.unlocked_ioctl = idlescope_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice idlescope_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = IDLESCOPE_DEV_NAME,
	.fops = &idlescope_fops,
	.mode = 0600,
};

static int __init idlescope_init(void)
{
	struct idlescope_dev *d = &idlescope_dev;
	int ret;

	if (ring_records < 16 || ring_records > (1u << 20) || !is_power_of_2(ring_records)) {
		pr_err("idlescope: ring_records=%u: must be a power of two in 16..1048576\n", ring_records);
		return -EINVAL;
	}
	ret = idlescope_probes_find();
	if (ret)
		return ret;
	mutex_init(&d->lock);
	mutex_init(&d->read_lock);
	d->bounce = kmalloc_array(READ_BATCH, sizeof(*d->bounce), GFP_KERNEL);
	if (!d->bounce)
		return -ENOMEM;
	spin_lock_init(&d->stats_lock);
	idlescope_event_init(d);
	ret = idlescope_ring_init(&d->ring, ring_records);
	if (ret)
		goto err_bounce;
	ret = misc_register(&idlescope_misc);
	if (ret)
		goto err_ring;
	if (!idlescope_tdt_available(d->tdt_why, sizeof(d->tdt_why)))
		pr_info("idlescope: method tdt unavailable: %s\n", d->tdt_why);
	pr_info("idlescope: /dev/%s ready (methods: hrt%s)\n", IDLESCOPE_DEV_NAME,
		d->tdt_why[0] ? "" : ", tdt");
	return 0;
err_ring:
	idlescope_ring_free(&d->ring);
err_bounce:
	kfree(d->bounce);
	return ret;
}

static void __exit idlescope_exit(void)
{
	misc_deregister(&idlescope_misc);
	idlescope_ring_free(&idlescope_dev.ring);
	kfree(idlescope_dev.bounce);
}

module_init(idlescope_init);
module_exit(idlescope_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("idlescope: CPU idle wake latency with timestamps taken in the idle path");
MODULE_VERSION(IDLESCOPE_VERSION);   /* CMake's project version, from Kbuild */
