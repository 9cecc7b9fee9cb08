/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-theme.c: the light and dark themes exports and the GUI start from. */
#define G_LOG_DOMAIN "ks-plot-theme"

#include "ks-plot-private.h"

#define HEX(h) { (((h) >> 16) & 0xff) / 255.0, (((h) >> 8) & 0xff) / 255.0, \
                 ((h) & 0xff) / 255.0, 1.0 }

/* Okabe–Ito without its vermillion (too close to the highlight red) and its
 * yellow (unreadable on white), with brown, grey and wine instead. */
static const KsPlotTheme light_theme = {
  .background = HEX (0xffffff),
  .foreground = HEX (0x222222),
  .grid       = { 0.0, 0.0, 0.0, 0.10 },
  .highlight  = HEX (0xd62728),
  .marker     = HEX (0x6a3d9a),
  .series     = {
    HEX (0x0072b2), HEX (0xe69f00), HEX (0x009e73), HEX (0xcc79a7),
    HEX (0x56b4e9), HEX (0x8c510a), HEX (0x555555), HEX (0x882255),
  },
  .font_family = "Sans",
  .font_size   = 10.0,
};

/* Brighter counterparts (yellow back in, as it reads well here) that keep
 * their contrast on dark grey. */
static const KsPlotTheme dark_theme = {
  .background = HEX (0x2b2b2b),
  .foreground = HEX (0xe6e6e6),
  .grid       = { 1.0, 1.0, 1.0, 0.12 },
  .highlight  = HEX (0xff5c5c),
  .marker     = HEX (0xc9a0ff),
  .series     = {
    HEX (0x56b4e9), HEX (0xe69f00), HEX (0x2ec99e), HEX (0xe58fc2),
    HEX (0xf0e442), HEX (0xbbbbbb), HEX (0x9a8cff), HEX (0xd2b48c),
  },
  .font_family = "Sans",
  .font_size   = 10.0,
};

const KsPlotTheme *
ks_plot_theme_light (void)
{
  return &light_theme;
}

const KsPlotTheme *
ks_plot_theme_dark (void)
{
  return &dark_theme;
}
