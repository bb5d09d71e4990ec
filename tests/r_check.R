# Products of float64 matrices in R (`%*%`, crossprod, tcrossprod of two matrices: R's dgemm_ calls through the
# system BLAS; crossprod and tcrossprod of one: its dsyrk_ calls), for tests/r.sh.
#   Rscript r_check.R SEED write FILE   the results' bytes into FILE; prints how many products and rank-k updates
#   Rscript r_check.R SEED check FILE   FILE's results against this run's own, within the bound of doc/TESTING.md,
#                                       2 (k + 2) 2^-53 (|A| |B|)_ij; prints the worst error as a fraction of it
args <- commandArgs(trailingOnly = TRUE)
set.seed(as.integer(args[1]))
shapes <- list(c(64, 64, 64), c(300, 200, 100), c(257, 129, 511), c(600, 600, 600), c(64, 2000, 64))
check <- args[2] == "check"
results <- list()
bounds <- list()
syrks <- 0
for (s in shapes) {
  m <- s[1]; n <- s[2]; k <- s[3]
  a <- matrix(rnorm(m * k), m, k)
  b <- matrix(rnorm(k * n), k, n)
  ta <- t(a); tb <- t(b)
  # A B, then with A and with B stored transposed (dgemm_ 'T','N' and 'N','T')
  results <- c(results, list(a %*% b, crossprod(ta, b), tcrossprod(a, tb)))
  if (check) { # |A| |B| (more dgemm_ calls: only in this run, which is not counted)
    bound <- 2 * (k + 2) * 2^-53 * (abs(a) %*% abs(b))
    bounds <- c(bounds, list(bound, bound, bound))
  }
  # A^T A and A A^T: dsyrk_ 'U','T' and 'U','N' (R fills the other triangle)
  results <- c(results, list(crossprod(a), tcrossprod(a)))
  syrks <- syrks + 2
  if (check)
    bounds <- c(bounds, list(2 * (m + 2) * 2^-53 * crossprod(abs(a)), 2 * (k + 2) * 2^-53 * tcrossprod(abs(a))))
}
values <- unlist(lapply(results, as.vector))
if (!check) {
  writeBin(values, args[3])
  cat("products", length(results) - syrks, "syrk", syrks, "\n")
} else {
  got <- readBin(args[3], "double", n = length(values) + 1)
  if (length(got) != length(values)) stop("FILE holds ", length(got), " values, want ", length(values))
  limit <- unlist(lapply(bounds, as.vector))
  err <- abs(got - values)
  if (any(is.na(got)) || any(err > limit)) {
    i <- which.max(err - limit)
    stop(sprintf("value %d: %.17g, want %.17g (bound %.3g)", i, got[i], values[i], limit[i]))
  }
  cat(sprintf("worst %.3f of the bound\n", max(err / limit)))
}
