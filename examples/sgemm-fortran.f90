! An ordinary Fortran program that calls SGEMM, built against OpenBLAS (gfortran sgemm-fortran.f90 -lopenblas); it
! knows nothing of tileblas.  Five products, each checked against a double-precision sum within 2 (k + 2) u |A| |B|
! (u = 2^-24); it prints one line per product (with the sum of C) and "all results correct", or stops with status 1.
program sgemm_fortran
  implicit none
  integer :: t
  logical :: ok
  integer, parameter :: shapes(3, 5) = reshape([64, 64, 64, 300, 200, 100, 257, 129, 511, 1000, 1000, 1000, &
                                                64, 2000, 64], [3, 5])
  character, parameter :: trans(2, 5) = reshape(['N', 'N', 'T', 'N', 'N', 'T', 'T', 'T', 'N', 'N'], [2, 5])
  integer :: nseed
  integer, allocatable :: seed(:)
  call random_seed(size=nseed)   ! a fixed seed: the same data every run
  allocate (seed(nseed))
  seed = [(20261130 + 7 * t, t = 1, nseed)]
  call random_seed(put=seed)
  ok = .true.
  do t = 1, 5
    call one(trans(1, t), trans(2, t), shapes(1, t), shapes(2, t), shapes(3, t), ok)
  end do
  if (.not. ok) stop 1
  print '(a)', 'all results correct'
contains
  subroutine one(ta, tb, m, n, k, ok)
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k
    logical, intent(inout) :: ok
    real, allocatable :: a(:, :), b(:, :), c(:, :)
    double precision :: s, mag, worst, x, y
    real :: alpha, beta
    integer :: i, j, l, lda, ldb
    lda = merge(k, m, ta == 'T')
    ldb = merge(n, k, tb == 'T')
    allocate (a(lda, merge(m, k, ta == 'T')), b(ldb, merge(k, n, tb == 'T')), c(m, n))
    call random_number(a)
    call random_number(b)
    a = a - 0.5
    b = b - 0.5
    c = 1.0
    alpha = 0.75
    beta = 0.5
    call sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, m)
    worst = 0
    do j = 1, n
      do i = 1, m
        s = 0
        mag = 0
        do l = 1, k
          if (ta == 'T') then
            x = a(l, i)
          else
            x = a(i, l)
          end if
          if (tb == 'T') then
            y = b(j, l)
          else
            y = b(l, j)
          end if
          s = s + x * y
          mag = mag + abs(x * y)
        end do
        s = alpha * s + beta
        mag = abs(alpha) * mag + abs(beta)
        worst = max(worst, abs(c(i, j) - s) / (2d0 * (k + 2) * 2d0**(-24) * mag))
      end do
    end do
    ! the sum of C in full: a change in any element shows
    print '(a, a, a, 3i6, a, f6.3, a, es24.16)', ta, tb, ' M N K', m, n, k, '  error ', worst, ' of the bound  sum', &
      sum(dble(c))
    if (.not. (worst <= 1)) ok = .false.
  end subroutine
end program
