#!/bin/sh
# Derives the EV base-load profile d (T = 52 slots of 15 min, kW per household) shipped as
# data/ev/base_load_taylor.csv from the real half-hourly England & Wales electricity demand
# `taylor` (Taylor 2003; R package forecast, Debian r-cran-forecast). CI does not run this: the
# CSV is committed. Steps: average the 12 weeks (84 days) of half-hourly demand (MW) into one
# 48-value daily profile; take the 13-hour overnight window 20:00 -> 09:00 (charging window of
# the paper's §VII, 52 slots of 15 min); resample to 15-minute slot midpoints by linear
# interpolation on the periodic daily profile; divide by the number of households in England
# and Wales (2001 census: 21,660,475) to get kW per household.
# Usage: scripts/ev_base_load.sh [output.csv]   (installs r-base-core r-cran-forecast if absent)
set -eu
out=${1:-$(dirname "$0")/../data/ev/base_load_taylor.csv}
if ! Rscript -e 'library(forecast)' >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends r-base-core r-cran-forecast
fi
Rscript - "$out" <<'REOF'
args <- commandArgs(trailingOnly = TRUE)
suppressMessages(library(forecast))
x <- as.numeric(forecast::taylor)            # 4032 half-hourly values, MW, from Mon 5 June 2000
stopifnot(length(x) == 4032)
daily <- colMeans(matrix(x, ncol = 48, byrow = TRUE))   # 84 days -> mean of each half hour
# half-hour h (0-based) covers [h/2, h/2 + 0.5) h; its value is placed at the midpoint h/2 + 0.25
mid <- (0:47) / 2 + 0.25
households <- 21660475                        # England and Wales, 2001 census
slot <- 0:51
hours <- 20 + slot / 4 + 1 / 8                # 15-min slot midpoints from 20:00
hours <- hours %% 24
ext_t <- c(mid - 24, mid, mid + 24)           # periodic extension for interpolation
ext_v <- rep(daily, 3)
mw <- approx(ext_t, ext_v, xout = hours)$y
kw <- mw * 1000 / households
df <- data.frame(slot = slot + 1, base_load_kw_per_household = sprintf("%.12f", kw))
con <- file(args[1], "w")
writeLines("# EV base load d (ev §VII): taylor (R forecast 8.20, Debian r-cran-forecast), mean over 84 days,", con)
writeLines("# 20:00-09:00 in 15-min slots (slot t starts at 20:00 + 15(t-1) min; linear interpolation of the", con)
writeLines("# half-hourly mean), / 21,660,475 households (England and Wales, 2001 census), kW per household.", con)
writeLines("# Made by scripts/ev_base_load.sh; read by ev::read_base_load_csv (spec/ev.md EV.DATA.CSV).", con)
write.csv(df, con, row.names = FALSE, quote = FALSE)
close(con)
REOF
echo "wrote $out"
