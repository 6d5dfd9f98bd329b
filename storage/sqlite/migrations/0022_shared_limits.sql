-- PostgreSQL's request limits shared between daemons (issue #34). One daemon owns an SQLite
-- file, and its platforms' own limiters keep their limits: nothing to share, nothing to keep.
SELECT 1;
