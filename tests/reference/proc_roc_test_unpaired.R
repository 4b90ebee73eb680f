# pROC's unpaired DeLong test, roc.test(roc1, roc2, paired = FALSE, method = "delong"), on two disjoint
# parts of the aSAH data (tests/reference/asah.csv): rows 1-60 and rows 61-113. Run from the repository root:
#   Rscript tests/reference/proc_roc_test_unpaired.R > tests/reference/proc_roc_test_unpaired.csv
# (Debian: r-base-core, r-cran-proc). The output is committed; tests/compare/test_unpaired.py reads it.
# direction = "<" and levels = c("Good", "Poor"): no direction flipping (rocci never flips).
suppressMessages(library(pROC))
d <- read.csv("tests/reference/asah.csv")
a <- d[1:60, ]
b <- d[61:113, ]
cases <- list(c("s100b", "wfns"), c("ndka", "s100b"), c("wfns", "ndka"), c("wfns", "wfns"))
rows <- lapply(cases, function(m) {
  r1 <- roc(a$outcome, a[[m[1]]], levels = c("Good", "Poor"), direction = "<", quiet = TRUE)
  r2 <- roc(b$outcome, b[[m[2]]], levels = c("Good", "Poor"), direction = "<", quiet = TRUE)
  t <- roc.test(r1, r2, paired = FALSE, method = "delong")
  data.frame(marker_a = m[1], marker_b = m[2], auc_a = as.numeric(r1$auc), auc_b = as.numeric(r2$auc),
             var_a = var(r1, method = "delong"), var_b = var(r2, method = "delong"),
             statistic = unname(t$statistic), df = unname(t$parameter), p_value = t$p.value)
})
cat(sprintf("# pROC %s, R %s: roc.test(paired = FALSE, method = \"delong\"), aSAH rows 1-60 (a) vs 61-113 (b)\n",
            packageVersion("pROC"), paste(R.version$major, R.version$minor, sep = ".")))
out <- do.call(rbind, rows)
num <- sapply(out, is.numeric)
out[num] <- lapply(out[num], function(x) sprintf("%.17g", x))  # every digit of the doubles
write.csv(out, row.names = FALSE, quote = FALSE)
