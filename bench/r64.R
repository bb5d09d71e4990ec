# R float64 n^2 product a %*% b: elapsed seconds of the median of 3 after a warm-up, and the error of sampled
# entries against sums accumulated in long double (R's sum), as a fraction of the bound 2 (n + 2) 2^-53 (|A||B|)_ij
n <- as.integer(commandArgs(TRUE)[1]); set.seed(12345)
a <- matrix(runif(n * n, -1, 1), n); b <- matrix(runif(n * n, -1, 1), n)
c <- a %*% b
ts <- sort(sapply(1:3, function(i) system.time(c <- a %*% b)[["elapsed"]]))
rows <- sample(n, 8); cols <- seq(1, n, by = 97); worst <- 0
for (r in rows) for (j in cols) {
  ref <- sum(a[r, ] * b[, j]); mag <- sum(abs(a[r, ]) * abs(b[, j]))
  worst <- max(worst, abs(c[r, j] - ref) / (2 * (n + 2) * 2^-53 * mag))
}
cat(sprintf("R %s float64 %d^2 %%*%%: %.4f s (median of 3; %s), worst error %.4f of the bound\n", getRversion(), n,
            ts[2], paste(sprintf("%.4f", ts), collapse = ", "), worst))
