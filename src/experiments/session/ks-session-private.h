/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-session-private.h: what the session's model and its reader share. */
#pragma once

#include "ks-session.h"

G_BEGIN_DECLS

/* The Devices page's largest number of cores per compute unit. */
#define KS_SESSION_MAX_CORES 1024

const KsHandMadePage *ks_session_find_hand_made (const char *id);
/* The parameter (experiment page) or field (hand-made page) name; NULL: none. */
const KsParamSpec    *ks_session_page_find_spec (const KsSessionPage *page,
                                                 const char          *name);
/* Sets KS_SESSION_ERROR_INVALID, "page “TITLE”: " and the message; returns FALSE. */
gboolean              ks_session_page_fail      (const KsSessionPage *page,
                                                 GError             **error,
                                                 const char          *format,
                                                 ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS
