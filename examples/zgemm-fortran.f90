! An ordinary Fortran program that calls ZGEMM, built against OpenBLAS (gfortran zgemm-fortran.f90 -lopenblas); it
! knows nothing of tileblas.  Five products with complex alpha and beta and every kind of op ('N', 'T', 'C': the
! conjugate transpose), each checked against a sum in quadruple precision within 2 sqrt(2) (2k + 2) u |A| |B|
! (u = 2^-53; each part of a complex multiply-add is a real sum of 2k products, none larger than |a| |b|); it
! prints one line per product (with the sum of C) and "all results correct", or stops with status 1.
program zgemm_fortran
  implicit none
  integer :: t
  logical :: ok
  integer, parameter :: shapes(3, 5) = reshape([64, 64, 64, 120, 80, 60, 97, 65, 129, 150, 100, 50, 64, 300, 32], &
                                               [3, 5])
  character, parameter :: trans(2, 5) = reshape(['N', 'N', 'C', 'N', 'N', 'C', 'T', 'C', 'C', 'T'], [2, 5])
  integer :: nseed
  integer, allocatable :: seed(:)
  call random_seed(size=nseed)   ! a fixed seed: the same data every run
  allocate (seed(nseed))
  seed = [(20261201 + 7 * t, t = 1, nseed)]
  call random_seed(put=seed)
  ok = .true.
  do t = 1, 5
    call one(trans(1, t), trans(2, t), shapes(1, t), shapes(2, t), shapes(3, t), ok)
  end do
  if (.not. ok) stop 1
  print '(a)', 'all results correct'
contains
  ! op(X)(i, l) of x, in quadruple precision
  function op(x, tr, i, l) result(v)
    complex(kind(0d0)), intent(in) :: x(:, :)
    character, intent(in) :: tr
    integer, intent(in) :: i, l
    complex(selected_real_kind(30)) :: v
    if (tr == 'N') then
      v = x(i, l)
    else if (tr == 'T') then
      v = x(l, i)
    else
      v = conjg(x(l, i))
    end if
  end function

  subroutine one(ta, tb, m, n, k, ok)
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k
    logical, intent(inout) :: ok
    integer, parameter :: qp = selected_real_kind(30)
    complex(kind(0d0)), allocatable :: a(:, :), b(:, :), c(:, :)
    double precision, allocatable :: re(:, :), im(:, :)
    complex(qp) :: s, x, y
    real(qp) :: mag
    double precision :: worst
    complex(kind(0d0)) :: alpha, beta
    integer :: i, j, l, lda, ldb
    lda = merge(m, k, ta == 'N')
    ldb = merge(k, n, tb == 'N')
    allocate (a(lda, merge(k, m, ta == 'N')), b(ldb, merge(n, k, tb == 'N')), c(m, n))
    allocate (re(lda, size(a, 2)), im(lda, size(a, 2)))
    call random_number(re)
    call random_number(im)
    a = cmplx(re - 0.5d0, im - 0.5d0, kind(0d0))
    deallocate (re, im)
    allocate (re(ldb, size(b, 2)), im(ldb, size(b, 2)))
    call random_number(re)
    call random_number(im)
    b = cmplx(re - 0.5d0, im - 0.5d0, kind(0d0))
    c = (1d0, -0.5d0)
    alpha = (0.75d0, -0.25d0)
    beta = (0.5d0, 1d0)
    call zgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, m)
    worst = 0
    do j = 1, n
      do i = 1, m
        s = 0
        mag = 0
        do l = 1, k
          x = op(a, ta, i, l)
          y = op(b, tb, l, j)
          s = s + x * y
          mag = mag + abs(x) * abs(y)
        end do
        s = alpha * s + beta * (1d0, -0.5d0)
        mag = abs(alpha) * mag + abs(beta) * abs((1d0, -0.5d0))
        worst = max(worst, dble(abs(c(i, j) - s) / (2 * sqrt(2.0_qp) * (2 * k + 2) * 2.0_qp**(-53) * mag)))
      end do
    end do
    ! the sum of C in full: a change in any element shows
    print '(a, a, a, 3i6, a, f6.3, a, 2es24.16)', ta, tb, ' M N K', m, n, k, '  error ', worst, ' of the bound  sum', &
      sum(c)
    if (.not. (worst <= 1)) ok = .false.
  end subroutine
end program
