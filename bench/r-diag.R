# R: the cost of a fresh n^2 double matrix (allocation and first touch), and a %*% b's elapsed time; the CPUs each
# of the process's threads may run on, before and after the first product (tileblas's copy threads among them)
n <- as.integer(commandArgs(TRUE)[1]); set.seed(1)
threads <- function(when) {
  for (t in list.files("/proc/self/task")) {
    s <- tryCatch(readLines(file.path("/proc/self/task", t, "status")), error = function(e) character())
    cat(sprintf("%s: task %s %s %s\n", when, t, sub("^Name:\\s*", "", s[1]),
                paste(grep("^Cpus_allowed_list", s, value = TRUE), collapse = "")))
  }
}
threads("before")
a <- matrix(runif(n * n, -1, 1), n); b <- matrix(runif(n * n, -1, 1), n)
f <- sapply(1:3, function(i) system.time(x <- matrix(0, n, n))[["elapsed"]])
cat(sprintf("R fresh %d^2 matrix(0): %s s\n", n, paste(sprintf("%.3f", f), collapse = ", ")))
p <- sapply(1:4, function(i) system.time(c <- a %*% b)[["elapsed"]])
cat(sprintf("R %d^2 %%*%%: %s s\n", n, paste(sprintf("%.3f", p), collapse = ", ")))
threads("after")
