# pROC's ci.coords on tests/reference/pr_binormal.csv: precision at recall levels k/60, stratified
# bootstrap, 10,000 resamples, seed 1. Run from the repository root:
#   Rscript tests/reference/proc_ci_coords.R > tests/reference/proc_ci_coords.csv
# (Debian: r-base-core, r-cran-proc). The output is committed; tests/reference/test_proc_ci_coords.py reads it.
suppressMessages(library(pROC))
d <- read.csv("tests/reference/pr_binormal.csv")
r <- roc(d$y, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
k <- c(6, 30, 48, 57)
set.seed(1)
ci <- ci.coords(r, x = k / 60, input = "sensitivity", ret = c("precision"), boot.n = 10000,
                boot.stratified = TRUE, conf.level = 0.95, progress = "none")
pt <- coords(r, x = k / 60, input = "sensitivity", ret = c("precision", "tp", "fp"), transpose = FALSE)
out <- data.frame(k = k, recall = k / 60, precision = pt$precision, tp = pt$tp, fp = pt$fp,
                  low = ci$precision[, 1], median = ci$precision[, 2], high = ci$precision[, 3])
cat(sprintf("# pROC %s, R %s, boot.n = 10000, stratified, seed 1\n", packageVersion("pROC"),
            paste(R.version$major, R.version$minor, sep = ".")))
write.csv(out, row.names = FALSE)
