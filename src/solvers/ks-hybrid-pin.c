/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hybrid-pin.c: see ks-hybrid-pin.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* sched_getaffinity, pthread_setaffinity_np */
#endif
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-hybrid-pin.h"

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

void
ks_hybrid_pin_init (KsHybridPin *pin,
                    guint        n_devices)
{
  *pin = (KsHybridPin) { 0, n_devices, NULL };
#ifdef __linux__
  cpu_set_t allowed;

  CPU_ZERO (&allowed);
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0 || (guint) CPU_COUNT (&allowed) < n_devices + 1)
    return;
  pin->cpus = g_new (int, CPU_COUNT (&allowed));
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &allowed))
      pin->cpus[pin->n_cpus++] = c;
#endif
}

#ifdef __linux__
static void
pin_self (const int *cpus,
          guint      n)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  for (guint i = 0; i < n; i++)
    CPU_SET (cpus[i], &set);
  /* Best effort: a refused pinning leaves the thread where it was. */
  (void) pthread_setaffinity_np (pthread_self (), sizeof set, &set);
}
#endif

void
ks_hybrid_pin_device (const KsHybridPin *pin,
                      guint              j)
{
#ifdef __linux__
  if (pin->n_cpus > 0 && j < pin->n_devices)
    pin_self (&pin->cpus[pin->n_cpus - 1 - j], 1);
#endif
}

int
ks_hybrid_pin_host (const KsHybridPin *pin)
{
#if defined(__linux__) && defined(_OPENMP)
  const int team = (int) (pin->n_cpus - pin->n_devices);

  if (pin->n_cpus == 0)
    return 0;
  omp_set_num_threads (team);
#pragma omp parallel num_threads (team)
  pin_self (&pin->cpus[omp_get_thread_num ()], 1);
  return team;
#else
  return 0;
#endif
}

void
ks_hybrid_pin_clear (KsHybridPin *pin)
{
#if defined(__linux__) && defined(_OPENMP)
  if (pin->n_cpus > 0)
    {
      const int team = (int) (pin->n_cpus - pin->n_devices);

#pragma omp parallel num_threads (team)
      pin_self (pin->cpus, pin->n_cpus);
    }
#endif
  g_clear_pointer (&pin->cpus, g_free);
  pin->n_cpus = 0;
}
