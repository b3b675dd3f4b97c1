// SPDX-License-Identifier: GPL-3.0-or-later
// cxx: C++ test program for readperf recordings: namespaces, class
// templates (geo::Grid<double>::relax, geo::Grid<float>::relax), a function
// template, and some libstdc++ work (std::to_string into std::string).
// Usage: cxx [SCALE]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace geo {

template <typename T> class Grid {
public:
	explicit Grid(std::size_t n) : n_(n), v_(n * n, T(1)) {}
	__attribute__((noinline)) void relax();
	__attribute__((noinline)) T total() const;

private:
	std::size_t n_;
	std::vector<T> v_;
};

template <typename T> void Grid<T>::relax()
{
	for (std::size_t i = 1; i + 1 < n_; i++)
		for (std::size_t j = 1; j + 1 < n_; j++)
			v_[i * n_ + j] = (v_[(i - 1) * n_ + j] + v_[(i + 1) * n_ + j] +
					  v_[i * n_ + j - 1] + v_[i * n_ + j + 1]) * T(0.25);
}

template <typename T> T Grid<T>::total() const
{
	T s = 0;
	for (const T &x : v_)
		s += x;
	return s;
}

} // namespace geo

namespace text {

template <typename F> __attribute__((noinline)) std::size_t build(int n, F f)
{
	std::string s;
	std::size_t len = 0;
	for (int i = 0; i < n; i++) {
		s = std::to_string(f(i));
		len += s.size();
	}
	return len;
}

} // namespace text

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
	int rounds = (int)(1000 * scale / 100);
	geo::Grid<double> gd(300);
	geo::Grid<float> gf(300);
	double r = 0;

	for (int k = 0; k < rounds; k++) {
		gd.relax();
		if (k % 2 == 0)
			gf.relax();
	}
	r = gd.total() + gf.total();
	std::size_t len = text::build((int)(1000000 * scale / 100), [](int i) { return i * 7; });
	std::printf("cxx %.3f %zu\n", r, len);
	return 0;
}
