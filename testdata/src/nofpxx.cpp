// SPDX-License-Identifier: GPL-3.0-or-later
// nofpxx: C++ without frame pointers (-O2 -fomit-frame-pointer): a template
// and a lambda under std::sort's comparisons, for --call-graph dwarf.
#include <algorithm>
#include <cstdio>
#include <vector>

namespace geo {
template <typename T> struct Grid {
	std::vector<T> v;
	__attribute__((noinline)) T relax(int rounds)
	{
		T s = 0;
		for (int r = 0; r < rounds; r++)
			for (size_t i = 1; i + 1 < v.size(); i++)
				v[i] = (v[i - 1] + v[i] + v[i + 1]) / 3, s += v[i];
		return s;
	}
};
}

__attribute__((noinline)) static double sorter(std::vector<double> &w)
{
	std::sort(w.begin(), w.end(), [](double a, double b) { return a * 1.0001 < b; });
	return w[w.size() / 2];
}

int main()
{
	geo::Grid<double> g{std::vector<double>(200000, 1.5)};
	std::vector<double> w(3000000);
	for (size_t i = 0; i < w.size(); i++)
		w[i] = (double)((i * 2654435761u) % 1000003);
	double a = g.relax(150);
	double b = sorter(w);
	std::printf("%d\n", (int)(a + b) & 1);
	return 0;
}
