// SPDX-License-Identifier: GPL-2.0-only
/* A bounded ring of fixed-size records. A full ring drops the new record and counts it;
 * the count travels with the next record that fits (record.lost), so loss is never silent. */
#include <linux/vmalloc.h>
#include "idlescope.h"

int idlescope_ring_init(struct idlescope_ring *r, u32 size)
{
	spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wq);
	r->size = size;
	r->buf = vmalloc(array_size(size, sizeof(*r->buf)));
	if (!r->buf)
		return -ENOMEM;
	idlescope_ring_reset(r);
	return 0;
}

void idlescope_ring_free(struct idlescope_ring *r)
{
	vfree(r->buf);
	r->buf = NULL;
}

void idlescope_ring_reset(struct idlescope_ring *r)
{
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	r->head = r->tail = 0;
	r->overflow = r->lost_pending = 0;
	spin_unlock_irqrestore(&r->lock, flags);
}

/* false: the ring was full, the record is dropped and counted as overflow */
bool idlescope_ring_push(struct idlescope_ring *r, struct idlescope_record *rec)
{
	unsigned long flags;
	bool pushed = false;

	spin_lock_irqsave(&r->lock, flags);
	if (r->head - r->tail < r->size) {
		rec->lost = r->lost_pending;
		r->lost_pending = 0;
		r->buf[r->head & (r->size - 1)] = *rec;
		r->head++;
		pushed = true;
	} else {
		r->overflow++;
		r->lost_pending++;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	if (pushed)
		wake_up_interruptible(&r->wq);
	return pushed;
}

/* Copies up to max records from the oldest without taking them off (one reader at a time:
 * only the reader advances the tail, so they stay there until idlescope_ring_advance()). */
u32 idlescope_ring_peek(struct idlescope_ring *r, struct idlescope_record *out, u32 max)
{
	unsigned long flags;
	u32 n = 0, tail;

	spin_lock_irqsave(&r->lock, flags);
	for (tail = r->tail; n < max && tail != r->head; tail++)
		out[n++] = r->buf[tail & (r->size - 1)];
	spin_unlock_irqrestore(&r->lock, flags);
	return n;
}

/* Takes n records, read with idlescope_ring_peek() and handed over, off the ring. */
void idlescope_ring_advance(struct idlescope_ring *r, u32 n)
{
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	r->tail += n;
	spin_unlock_irqrestore(&r->lock, flags);
}

bool idlescope_ring_empty(struct idlescope_ring *r)
{
	unsigned long flags;
	bool empty;

	spin_lock_irqsave(&r->lock, flags);
	empty = r->head == r->tail;
	spin_unlock_irqrestore(&r->lock, flags);
	return empty;
}
