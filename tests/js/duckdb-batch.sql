-- The README's "many profiles" query: the top functions across every profile of a
-- batch directory (readperf -o DIR FILE...), with in how many profiles each one
-- appears and its total time. @DIR@ is replaced by the directory.
SELECT function, count(DISTINCT profile) AS profiles, sum(period) AS period
FROM read_csv('@DIR@/*/results.csv', union_by_name = true)
GROUP BY function
ORDER BY period DESC, function
LIMIT 10;
