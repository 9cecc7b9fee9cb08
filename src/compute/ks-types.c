/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-types.h"

const char *
ks_precision_to_string (KsPrecision precision)
{
  return precision == KS_PRECISION_DOUBLE ? "double" : "float";
}

gsize
ks_precision_size (KsPrecision precision)
{
  return precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);
}

const char *
ks_local_policy_to_string (KsLocalPolicy local)
{
  switch (local)
    {
    case KS_LOCAL_EXPLICIT: return "explicit";
    case KS_LOCAL_SPLIT: return "split";
    case KS_LOCAL_DRIVER:
    default: return "driver";
    }
}

const char *
ks_launch_mode_to_string (KsLaunchMode launch)
{
  return launch == KS_LAUNCH_GRAPH ? "graph" : launch == KS_LAUNCH_BLOCKED ? "blocked" : "stream";
}

gboolean
ks_precision_from_string (const char  *s,
                          KsPrecision *out)
{
  g_return_val_if_fail (s != NULL && out != NULL, FALSE);

  if (g_ascii_strcasecmp (s, "float") == 0 || g_ascii_strcasecmp (s, "single") == 0)
    *out = KS_PRECISION_FLOAT;
  else if (g_ascii_strcasecmp (s, "double") == 0)
    *out = KS_PRECISION_DOUBLE;
  else
    return FALSE;
  return TRUE;
}

gboolean
ks_local_policy_from_string (const char    *s,
                             KsLocalPolicy *out)
{
  g_return_val_if_fail (s != NULL && out != NULL, FALSE);

  if (g_ascii_strcasecmp (s, "driver") == 0)
    *out = KS_LOCAL_DRIVER;
  else if (g_ascii_strcasecmp (s, "explicit") == 0)
    *out = KS_LOCAL_EXPLICIT;
  else if (g_ascii_strcasecmp (s, "split") == 0)
    *out = KS_LOCAL_SPLIT;
  else
    return FALSE;
  return TRUE;
}

gboolean
ks_launch_mode_from_string (const char   *s,
                            KsLaunchMode *out)
{
  g_return_val_if_fail (s != NULL && out != NULL, FALSE);

  if (g_ascii_strcasecmp (s, "stream") == 0)
    *out = KS_LAUNCH_STREAM;
  else if (g_ascii_strcasecmp (s, "graph") == 0)
    *out = KS_LAUNCH_GRAPH;
  else if (g_ascii_strcasecmp (s, "blocked") == 0)
    *out = KS_LAUNCH_BLOCKED;
  else
    return FALSE;
  return TRUE;
}
