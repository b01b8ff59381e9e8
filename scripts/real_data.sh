#!/bin/sh
# Converts the real binary-classification data sets used by the accel, linesearch and dda studies
# from Debian packages into plain files under data/real/ (not committed: run this once before a
# study; CI does not need it). Pre-processing of linesearch §5.1: categorical columns one-hot
# encoded (one column per level), numeric columns min-max scaled to [0, 1], constant columns
# dropped; labels in {0, 1}.
#   fertility.csv       AER::Fertility (r-cran-aer), 254,654 rows (1980 US census), label morekids=yes
#   shuttle.csv         mlbench::Shuttle (r-cran-mlbench), 58,000 rows, label Class == "Rad.Flow"
#   grants_other.svm    modeldata::grants_other (r-cran-modeldata), 8,190 rows, sparse one-hot
#                       features in LIBSVM format (1-based indices), label class == "successful";
#                       feature names in grants_other.features (one per line, index order)
#   fashion-mnist/      the IDX files of Debian dataset-fashion-mnist, decompressed
# Every CSV starts with a header line: label,<feature names...>. Each file's first comment line
# (CSV) or the .features file says where it came from.
# Usage: scripts/real_data.sh [outdir]   (installs the Debian packages if absent; needs root)
set -eu
out=${1:-$(dirname "$0")/../data/real}
mkdir -p "$out"
need=""
Rscript -e 'library(AER)' >/dev/null 2>&1 || need="$need r-cran-aer"
Rscript -e 'library(mlbench)' >/dev/null 2>&1 || need="$need r-cran-mlbench"
Rscript -e 'library(modeldata)' >/dev/null 2>&1 || need="$need r-cran-modeldata"
[ -d /usr/share/datasets/fashion-mnist ] || need="$need dataset-fashion-mnist"
if [ -n "$need" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends r-base-core $need
fi
Rscript - "$out" <<'REOF'
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
suppressMessages({ library(AER); library(mlbench); library(modeldata) })
# One-hot factors (every level), min-max scale numerics to [0, 1], drop constant columns.
encode <- function(df) {
  cols <- list()
  for (name in names(df)) {
    v <- df[[name]]
    if (is.factor(v) || is.character(v) || is.logical(v)) {
      v <- as.factor(v)
      for (lev in levels(v)) cols[[paste0(name, "_", make.names(lev))]] <- as.numeric(v == lev)
    } else {
      v <- as.numeric(v)
      lo <- min(v); hi <- max(v)
      cols[[name]] <- if (hi > lo) (v - lo) / (hi - lo) else v * 0
    }
  }
  m <- as.data.frame(cols, check.names = FALSE)
  keep <- sapply(m, function(c) max(c) > min(c))
  m[, keep, drop = FALSE]
}
write_csv <- function(label, X, file, note) {
  con <- file(file, "w")
  writeLines(paste0("# ", note), con)
  writeLines(paste(c("label", names(X)), collapse = ","), con)
  body <- cbind(label, X)
  write.table(format(body, digits = 15, scientific = FALSE, trim = TRUE), con, sep = ",",
              row.names = FALSE, col.names = FALSE, quote = FALSE)
  close(con)
}
data(Fertility)
X <- encode(Fertility[, setdiff(names(Fertility), "morekids")])
write_csv(as.integer(Fertility$morekids == "yes"), X, file.path(out, "fertility.csv"),
          "AER::Fertility (Debian r-cran-aer), label morekids == yes; made by scripts/real_data.sh")
data(Shuttle)
X <- encode(Shuttle[, setdiff(names(Shuttle), "Class")])
write_csv(as.integer(Shuttle$Class == "Rad.Flow"), X, file.path(out, "shuttle.csv"),
          "mlbench::Shuttle (Debian r-cran-mlbench), label Class == Rad.Flow; made by scripts/real_data.sh")
data(grants)
X <- encode(grants_other[, setdiff(names(grants_other), "class")])
y <- as.integer(grants_other$class == "successful")
con <- file(file.path(out, "grants_other.svm"), "w")
M <- as.matrix(X)
lines <- character(nrow(M))
for (i in seq_len(nrow(M))) {
  nz <- which(M[i, ] != 0)
  lines[i] <- paste(c(y[i], paste0(nz, ":", format(M[i, nz], digits = 15, trim = TRUE))), collapse = " ")
}
writeLines(lines, con)
close(con)
writeLines(c("# modeldata::grants_other (Debian r-cran-modeldata), label class == successful; made by scripts/real_data.sh",
             names(X)), file.path(out, "grants_other.features"))
cat(sprintf("fertility %d x %d, shuttle %d x %d, grants_other %d x %d\n",
            nrow(Fertility), ncol(encode(Fertility[, -1])), nrow(Shuttle), 9L, nrow(M), ncol(M)))
REOF
mkdir -p "$out/fashion-mnist"
for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  gzip -dc "/usr/share/datasets/fashion-mnist/$f.gz" > "$out/fashion-mnist/$f"
done
echo "real_data: wrote $(ls "$out" | tr '\n' ' ')"
