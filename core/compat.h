/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the few kernel interfaces the portable core uses.
 *
 * In a kernel build this only pulls in the real headers.  On the host it
 * maps them onto libc, pthreads and liburcu so that the same sources can be
 * unit tested and benchmarked as ordinary programs.
 */
#ifndef _TW_COMPAT_H
#define _TW_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/bug.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/hrtimer.h>
#include <linux/version.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/seqlock.h>
#include <linux/prefetch.h>
#include <linux/percpu.h>
#include <linux/bottom_half.h>
#include <linux/u64_stats_sync.h>

/* Older kernels' gaps are filled in include/tw/compat.h, not here. */

/* Now on a clock a user may name; anything else reads CLOCK_MONOTONIC. */
static inline u64 tw_clock_ns(clockid_t clockid)
{
	switch (clockid) {
	case CLOCK_REALTIME:
		return ktime_get_real_ns();
	case CLOCK_TAI:
		return ktime_get_clocktai_ns();
	default:
		return ktime_get_ns();
	}
}

#else /* host */

/* Host builds define _GNU_SOURCE: the writer-first rwlock is glibc's. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>
/*
 * liburcu's default flavour, memb: readers need no quiescent-state calls
 * (qsbr would make every reader thread announce them, which the kernel's
 * scheduler does for free and a core function cannot do for its caller),
 * and with sys_membarrier its read side is a compiler barrier and a
 * thread-local counter.  _LGPL_SOURCE inlines that read side, as the
 * kernel's is.  TW_HOST_NO_URCU builds use the lock-based RCU below.
 */
#ifndef TW_HOST_NO_URCU
#define _LGPL_SOURCE
#include <urcu.h>
#endif
#include <linux/types.h>

/* From the uapi types, so that u64 is unsigned long long as in the kernel. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		(-S64_MAX - 1)

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/* Evaluate each argument once, like the kernel versions. */
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	clamp((t)(v), (t)(lo), (t)(hi))

/* True when the product wrapped; *d holds it wrapped, as the kernel's. */
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline s64 div_s64(s64 a, s32 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }

#define GFP_KERNEL	0
#define GFP_KERNEL_ACCOUNT	0
#define GFP_ATOMIC	0
#define kmalloc(size, gfp)	((void)(gfp), malloc(size))
#define kzalloc(size, gfp)	((void)(gfp), calloc(1, size))
#define kcalloc(n, size, gfp)	((void)(gfp), calloc(n, size))
#define kfree(p)		free(p)
#define kvfree(p)		free(p)

/*
 * Warnings print and count rather than abort, as in the kernel; tests read
 * tw_host_warnings to assert that none (or an expected one) fired.
 */
#pragma weak tw_host_warnings
unsigned long tw_host_warnings;

#define WARN_ON(cond) ({						\
	bool _c = !!(cond);						\
	if (unlikely(_c)) {						\
		tw_host_warnings++;					\
		fprintf(stderr, "WARNING: %s:%d: %s\n",			\
			__FILE__, __LINE__, #cond);			\
	}								\
	_c;								\
})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)

/* Kernel type names; defines rather than typedefs, they are aliases. */
#define spinlock_t		pthread_spinlock_t
#define spin_lock_init(l)	pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE)
#define spin_lock(l)		pthread_spin_lock(l)
#define spin_unlock(l)		pthread_spin_unlock(l)
#define spin_lock_bh(l)		pthread_spin_lock(l)
#define spin_unlock_bh(l)	pthread_spin_unlock(l)

struct tw_atomic64 {
	s64 counter;
};

#define atomic64_t		struct tw_atomic64

#define ATOMIC64_INIT(i)	{ (i) }

static inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic64_set(atomic64_t *v, s64 i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic64_add(s64 i, atomic64_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic64_sub(s64 i, atomic64_t *v)
{
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);
}

static inline s64 atomic64_add_return(s64 i, atomic64_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

#define atomic64_inc(v)		atomic64_add(1, v)
#define atomic64_dec(v)		atomic64_sub(1, v)
#define atomic64_inc_return(v)	atomic64_add_return(1, v)

/* Barriers, atomics and hints of the lock-free paths. */
#define smp_store_release(p, v)	/* earlier accesses before the store */ \
	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_load_acquire(p)	/* later accesses after the load */ \
	__atomic_load_n(p, __ATOMIC_ACQUIRE)
/* Returns the old value, like the kernel's; full barrier. */
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) _o = (o);					\
	__atomic_compare_exchange_n(p, &_o, n, false, __ATOMIC_SEQ_CST,	\
				    __ATOMIC_SEQ_CST);			\
	_o;								\
})
#define prefetch(p)		__builtin_prefetch(p, 0)
#define prefetchw(p)		__builtin_prefetch(p, 1)
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Lock annotations are for sparse, which only checks kernel builds. */
#define __acquires(...)
#define __releases(...)
#define __acquire(...)		((void)0)
#define __release(...)		((void)0)

/* A thread is never interrupted by a softirq on the host. */
#define local_bh_disable()	do { } while (0)
#define local_bh_enable()	do { } while (0)

/* Cache-line aligned, as the kernel's large allocations are. */
static inline void *tw_host_kvcalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size && n > (size_t)-1 / size - 64)
		return NULL;
	bytes = (n * size + 63) & ~(size_t)63;
	p = aligned_alloc(64, bytes ? bytes : 64);
	if (p)
		memset(p, 0, bytes);
	return p;
}

#define kvcalloc(n, size, gfp)	((void)(gfp), tw_host_kvcalloc(n, size))

/*
 * rwlock_t: writers first, as the kernel's queued rwlock mostly is; glibc's
 * default lets a stream of readers starve the writer.
 */
#define rwlock_t		pthread_rwlock_t
static inline void tw_host_rwlock_init(pthread_rwlock_t *l)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(l, &a);
	pthread_rwlockattr_destroy(&a);
}
#define rwlock_init(l)		tw_host_rwlock_init(l)
#define read_lock_bh(l)		pthread_rwlock_rdlock(l)
#define read_unlock_bh(l)	pthread_rwlock_unlock(l)
#define write_lock_bh(l)	pthread_rwlock_wrlock(l)
#define write_unlock_bh(l)	pthread_rwlock_unlock(l)

/*
 * seqcount_t: the C11 seqlock; the protected data must be accessed with
 * READ_ONCE/WRITE_ONCE (relaxed atomics), so that the race a reader retries
 * is not undefined behaviour and ThreadSanitizer does not report it.
 */
struct tw_host_seqcount {
	unsigned int sequence;
};

#define seqcount_t		struct tw_host_seqcount

#define seqcount_init(s)	((s)->sequence = 0)

static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while ((seq = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1)
		cpu_relax();
	return seq;
}

#ifndef __SANITIZE_THREAD__
static inline int read_seqcount_retry(const seqcount_t *s, unsigned int seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != seq;
}

static inline void write_seqcount_begin(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, READ_ONCE(s->sequence) + 1,
			 __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}
#else
/* TSan has no fences: read-modify-writes order the same, slower. */
static inline int read_seqcount_retry(seqcount_t *s, unsigned int seq)
{
	return __atomic_fetch_add(&s->sequence, 0, __ATOMIC_RELEASE) != seq;
}

static inline void write_seqcount_begin(seqcount_t *s)
{
	__atomic_fetch_add(&s->sequence, 1, __ATOMIC_ACQUIRE);
}
#endif

static inline void write_seqcount_end(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, READ_ONCE(s->sequence) + 1,
			 __ATOMIC_RELEASE);
}

/*
 * Per-CPU data: one slot per thread (up to TW_HOST_NR_CPUS threads, then
 * shared), TW_HOST_PCPU_UNIT bytes apart.  get_cpu_ptr() gives the
 * thread's slot.
 */
#define TW_HOST_NR_CPUS		64
#define TW_HOST_PCPU_UNIT	256
#define __percpu

static inline unsigned int tw_host_cpu(void)
{
	static __thread int slot = -1;
	static unsigned int next;

	if (unlikely(slot < 0))
		slot = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) %
		       TW_HOST_NR_CPUS;
	return slot;
}

#define alloc_percpu(type) ({						\
	_Static_assert(sizeof(type) <= TW_HOST_PCPU_UNIT, "per-cpu unit"); \
	(type *)calloc(TW_HOST_NR_CPUS, TW_HOST_PCPU_UNIT);		\
})
#define alloc_percpu_gfp(type, gfp)	((void)(gfp), alloc_percpu(type))
#define free_percpu(p)		free(p)
#define per_cpu_ptr(p, cpu)						\
	((__typeof__(p))((char *)(p) + (cpu) * TW_HOST_PCPU_UNIT))
#define for_each_possible_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < TW_HOST_NR_CPUS; (cpu)++)
#define get_cpu_ptr(p)		per_cpu_ptr(p, tw_host_cpu())
#define put_cpu_ptr(p)		((void)(p))

/*
 * u64_stats: every host the core runs on reads a u64 whole with a relaxed
 * atomic load, so there is no sequence to keep.  An update is a relaxed
 * load and store, not an atomic add: exact while slots are not shared.
 */
struct u64_stats_sync {
	char unused;
};

struct tw_u64_stats {
	u64 v;
};

#define u64_stats_t		struct tw_u64_stats

static inline void u64_stats_init(struct u64_stats_sync *s)
{
	(void)s;
}

static inline u64 u64_stats_read(const u64_stats_t *p)
{
	return __atomic_load_n(&p->v, __ATOMIC_RELAXED);
}

static inline void u64_stats_add(u64_stats_t *p, u64 n)
{
	__atomic_store_n(&p->v, u64_stats_read(p) + n, __ATOMIC_RELAXED);
}

static inline unsigned long
u64_stats_update_begin_irqsave(struct u64_stats_sync *s)
{
	(void)s;
	return 0;
}

static inline void u64_stats_update_end_irqrestore(struct u64_stats_sync *s,
						   unsigned long flags)
{
	(void)s;
	(void)flags;
}

static inline unsigned int u64_stats_fetch_begin(const struct u64_stats_sync *s)
{
	(void)s;
	return 0;
}

static inline bool u64_stats_fetch_retry(const struct u64_stats_sync *s,
					 unsigned int start)
{
	(void)s;
	(void)start;
	return false;
}

#ifdef TW_HOST_NO_URCU
/*
 * Lock-based RCU for builds without liburcu: the 32-bit cross build (no
 * liburcu for it) and the ThreadSanitizer build (which cannot see the
 * ordering that liburcu's membarrier() grace periods give, and would
 * report it as races).  Readers hold a read lock, a grace period takes
 * the write lock once.  call_rcu() only queues: the callbacks run in
 * rcu_barrier(), after a grace period, so a reader may call it.  Read-side
 * sections must not nest.
 */
#define __rcu

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

#pragma weak tw_host_rcu_lock
pthread_rwlock_t tw_host_rcu_lock =
	PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
#pragma weak tw_host_rcu_queue_lock
pthread_mutex_t tw_host_rcu_queue_lock = PTHREAD_MUTEX_INITIALIZER;
#pragma weak tw_host_rcu_queue
struct rcu_head *tw_host_rcu_queue;

#define rcu_register_thread()	do { } while (0)
#define rcu_unregister_thread()	do { } while (0)
#define rcu_read_lock()		pthread_rwlock_rdlock(&tw_host_rcu_lock)
#define rcu_read_unlock()	pthread_rwlock_unlock(&tw_host_rcu_lock)
#define rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

static inline void synchronize_rcu(void)
{
	pthread_rwlock_wrlock(&tw_host_rcu_lock);
	pthread_rwlock_unlock(&tw_host_rcu_lock);
}

static inline void call_rcu(struct rcu_head *head,
			    void (*func)(struct rcu_head *head))
{
	head->func = func;
	pthread_mutex_lock(&tw_host_rcu_queue_lock);
	head->next = tw_host_rcu_queue;
	tw_host_rcu_queue = head;
	pthread_mutex_unlock(&tw_host_rcu_queue_lock);
}

static inline void rcu_barrier(void)
{
	struct rcu_head *head, *next;

	pthread_mutex_lock(&tw_host_rcu_queue_lock);
	head = tw_host_rcu_queue;
	tw_host_rcu_queue = NULL;
	pthread_mutex_unlock(&tw_host_rcu_queue_lock);
	synchronize_rcu();
	for (; head; head = next) {
		next = head->next;
		head->func(head);
	}
}
#endif /* TW_HOST_NO_URCU */

/* The kernel's names that liburcu does not have. */
#define rcu_dereference_raw(p)		rcu_dereference(p)
#define rcu_dereference_protected(p, c)	((void)(c), (p))
#define rcu_dereference_check(p, c)	((void)(c), rcu_dereference(p))
/* No lockdep on the host: what it would check is taken as held. */
#define lockdep_is_held(l)		((void)(l), 1)
#define rcu_read_lock_held()		1
#define cond_resched()			do { } while (0)
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)

static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

#endif /* __KERNEL__ */

#endif /* _TW_COMPAT_H */
