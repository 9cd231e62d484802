CREATE VIRTUAL TABLE documents_fts USING fts5(jkey, title, content, content='documents', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO documents_fts(documents_fts, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER documents_fts_ai AFTER INSERT ON documents BEGIN
  INSERT INTO documents_fts(rowid, jkey, title, content) VALUES (new.seq, new.jkey, new.title, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER documents_fts_ad AFTER DELETE ON documents BEGIN
  INSERT INTO documents_fts(documents_fts, rowid, jkey, title, content) VALUES ('delete', old.seq, old.jkey, old.title, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER documents_fts_au AFTER UPDATE OF seq, journey_id, title, content ON documents BEGIN
  INSERT INTO documents_fts(documents_fts, rowid, jkey, title, content) SELECT 'delete', old.seq, old.jkey, old.title, old.content;
  INSERT INTO documents_fts(rowid, jkey, title, content) SELECT new.seq, new.jkey, new.title, new.content;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_00_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 0;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_00 USING fts5(jkey, summary, content='sessions_fts_00_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_00(sessions_fts_00, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_00_ai AFTER INSERT ON sessions WHEN new.fts_shard = 0 BEGIN
  INSERT INTO sessions_fts_00(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_00_ad AFTER DELETE ON sessions WHEN old.fts_shard = 0 BEGIN
  INSERT INTO sessions_fts_00(sessions_fts_00, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_00_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 0 OR new.fts_shard = 0 BEGIN
  INSERT INTO sessions_fts_00(sessions_fts_00, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 0;
  INSERT INTO sessions_fts_00(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 0;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_01_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 1;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_01 USING fts5(jkey, summary, content='sessions_fts_01_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_01(sessions_fts_01, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_01_ai AFTER INSERT ON sessions WHEN new.fts_shard = 1 BEGIN
  INSERT INTO sessions_fts_01(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_01_ad AFTER DELETE ON sessions WHEN old.fts_shard = 1 BEGIN
  INSERT INTO sessions_fts_01(sessions_fts_01, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_01_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 1 OR new.fts_shard = 1 BEGIN
  INSERT INTO sessions_fts_01(sessions_fts_01, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 1;
  INSERT INTO sessions_fts_01(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 1;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_02_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 2;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_02 USING fts5(jkey, summary, content='sessions_fts_02_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_02(sessions_fts_02, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_02_ai AFTER INSERT ON sessions WHEN new.fts_shard = 2 BEGIN
  INSERT INTO sessions_fts_02(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_02_ad AFTER DELETE ON sessions WHEN old.fts_shard = 2 BEGIN
  INSERT INTO sessions_fts_02(sessions_fts_02, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_02_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 2 OR new.fts_shard = 2 BEGIN
  INSERT INTO sessions_fts_02(sessions_fts_02, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 2;
  INSERT INTO sessions_fts_02(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 2;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_03_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 3;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_03 USING fts5(jkey, summary, content='sessions_fts_03_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_03(sessions_fts_03, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_03_ai AFTER INSERT ON sessions WHEN new.fts_shard = 3 BEGIN
  INSERT INTO sessions_fts_03(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_03_ad AFTER DELETE ON sessions WHEN old.fts_shard = 3 BEGIN
  INSERT INTO sessions_fts_03(sessions_fts_03, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_03_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 3 OR new.fts_shard = 3 BEGIN
  INSERT INTO sessions_fts_03(sessions_fts_03, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 3;
  INSERT INTO sessions_fts_03(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 3;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_04_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 4;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_04 USING fts5(jkey, summary, content='sessions_fts_04_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_04(sessions_fts_04, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_04_ai AFTER INSERT ON sessions WHEN new.fts_shard = 4 BEGIN
  INSERT INTO sessions_fts_04(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_04_ad AFTER DELETE ON sessions WHEN old.fts_shard = 4 BEGIN
  INSERT INTO sessions_fts_04(sessions_fts_04, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_04_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 4 OR new.fts_shard = 4 BEGIN
  INSERT INTO sessions_fts_04(sessions_fts_04, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 4;
  INSERT INTO sessions_fts_04(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 4;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_05_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 5;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_05 USING fts5(jkey, summary, content='sessions_fts_05_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_05(sessions_fts_05, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_05_ai AFTER INSERT ON sessions WHEN new.fts_shard = 5 BEGIN
  INSERT INTO sessions_fts_05(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_05_ad AFTER DELETE ON sessions WHEN old.fts_shard = 5 BEGIN
  INSERT INTO sessions_fts_05(sessions_fts_05, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_05_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 5 OR new.fts_shard = 5 BEGIN
  INSERT INTO sessions_fts_05(sessions_fts_05, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 5;
  INSERT INTO sessions_fts_05(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 5;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_06_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 6;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_06 USING fts5(jkey, summary, content='sessions_fts_06_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_06(sessions_fts_06, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_06_ai AFTER INSERT ON sessions WHEN new.fts_shard = 6 BEGIN
  INSERT INTO sessions_fts_06(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_06_ad AFTER DELETE ON sessions WHEN old.fts_shard = 6 BEGIN
  INSERT INTO sessions_fts_06(sessions_fts_06, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_06_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 6 OR new.fts_shard = 6 BEGIN
  INSERT INTO sessions_fts_06(sessions_fts_06, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 6;
  INSERT INTO sessions_fts_06(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 6;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_07_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 7;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_07 USING fts5(jkey, summary, content='sessions_fts_07_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_07(sessions_fts_07, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_07_ai AFTER INSERT ON sessions WHEN new.fts_shard = 7 BEGIN
  INSERT INTO sessions_fts_07(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_07_ad AFTER DELETE ON sessions WHEN old.fts_shard = 7 BEGIN
  INSERT INTO sessions_fts_07(sessions_fts_07, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_07_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 7 OR new.fts_shard = 7 BEGIN
  INSERT INTO sessions_fts_07(sessions_fts_07, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 7;
  INSERT INTO sessions_fts_07(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 7;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_08_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 8;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_08 USING fts5(jkey, summary, content='sessions_fts_08_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_08(sessions_fts_08, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_08_ai AFTER INSERT ON sessions WHEN new.fts_shard = 8 BEGIN
  INSERT INTO sessions_fts_08(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_08_ad AFTER DELETE ON sessions WHEN old.fts_shard = 8 BEGIN
  INSERT INTO sessions_fts_08(sessions_fts_08, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_08_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 8 OR new.fts_shard = 8 BEGIN
  INSERT INTO sessions_fts_08(sessions_fts_08, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 8;
  INSERT INTO sessions_fts_08(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 8;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_09_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 9;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_09 USING fts5(jkey, summary, content='sessions_fts_09_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_09(sessions_fts_09, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_09_ai AFTER INSERT ON sessions WHEN new.fts_shard = 9 BEGIN
  INSERT INTO sessions_fts_09(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_09_ad AFTER DELETE ON sessions WHEN old.fts_shard = 9 BEGIN
  INSERT INTO sessions_fts_09(sessions_fts_09, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_09_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 9 OR new.fts_shard = 9 BEGIN
  INSERT INTO sessions_fts_09(sessions_fts_09, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 9;
  INSERT INTO sessions_fts_09(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 9;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_10_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 10;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_10 USING fts5(jkey, summary, content='sessions_fts_10_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_10(sessions_fts_10, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_10_ai AFTER INSERT ON sessions WHEN new.fts_shard = 10 BEGIN
  INSERT INTO sessions_fts_10(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_10_ad AFTER DELETE ON sessions WHEN old.fts_shard = 10 BEGIN
  INSERT INTO sessions_fts_10(sessions_fts_10, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_10_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 10 OR new.fts_shard = 10 BEGIN
  INSERT INTO sessions_fts_10(sessions_fts_10, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 10;
  INSERT INTO sessions_fts_10(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 10;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_11_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 11;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_11 USING fts5(jkey, summary, content='sessions_fts_11_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_11(sessions_fts_11, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_11_ai AFTER INSERT ON sessions WHEN new.fts_shard = 11 BEGIN
  INSERT INTO sessions_fts_11(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_11_ad AFTER DELETE ON sessions WHEN old.fts_shard = 11 BEGIN
  INSERT INTO sessions_fts_11(sessions_fts_11, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_11_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 11 OR new.fts_shard = 11 BEGIN
  INSERT INTO sessions_fts_11(sessions_fts_11, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 11;
  INSERT INTO sessions_fts_11(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 11;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_12_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 12;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_12 USING fts5(jkey, summary, content='sessions_fts_12_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_12(sessions_fts_12, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_12_ai AFTER INSERT ON sessions WHEN new.fts_shard = 12 BEGIN
  INSERT INTO sessions_fts_12(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_12_ad AFTER DELETE ON sessions WHEN old.fts_shard = 12 BEGIN
  INSERT INTO sessions_fts_12(sessions_fts_12, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_12_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 12 OR new.fts_shard = 12 BEGIN
  INSERT INTO sessions_fts_12(sessions_fts_12, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 12;
  INSERT INTO sessions_fts_12(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 12;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_13_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 13;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_13 USING fts5(jkey, summary, content='sessions_fts_13_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_13(sessions_fts_13, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_13_ai AFTER INSERT ON sessions WHEN new.fts_shard = 13 BEGIN
  INSERT INTO sessions_fts_13(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_13_ad AFTER DELETE ON sessions WHEN old.fts_shard = 13 BEGIN
  INSERT INTO sessions_fts_13(sessions_fts_13, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_13_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 13 OR new.fts_shard = 13 BEGIN
  INSERT INTO sessions_fts_13(sessions_fts_13, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 13;
  INSERT INTO sessions_fts_13(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 13;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_14_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 14;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_14 USING fts5(jkey, summary, content='sessions_fts_14_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_14(sessions_fts_14, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_14_ai AFTER INSERT ON sessions WHEN new.fts_shard = 14 BEGIN
  INSERT INTO sessions_fts_14(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_14_ad AFTER DELETE ON sessions WHEN old.fts_shard = 14 BEGIN
  INSERT INTO sessions_fts_14(sessions_fts_14, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_14_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 14 OR new.fts_shard = 14 BEGIN
  INSERT INTO sessions_fts_14(sessions_fts_14, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 14;
  INSERT INTO sessions_fts_14(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 14;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_15_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 15;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_15 USING fts5(jkey, summary, content='sessions_fts_15_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_15(sessions_fts_15, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_15_ai AFTER INSERT ON sessions WHEN new.fts_shard = 15 BEGIN
  INSERT INTO sessions_fts_15(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_15_ad AFTER DELETE ON sessions WHEN old.fts_shard = 15 BEGIN
  INSERT INTO sessions_fts_15(sessions_fts_15, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_15_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 15 OR new.fts_shard = 15 BEGIN
  INSERT INTO sessions_fts_15(sessions_fts_15, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 15;
  INSERT INTO sessions_fts_15(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 15;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_16_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 16;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_16 USING fts5(jkey, summary, content='sessions_fts_16_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_16(sessions_fts_16, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_16_ai AFTER INSERT ON sessions WHEN new.fts_shard = 16 BEGIN
  INSERT INTO sessions_fts_16(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_16_ad AFTER DELETE ON sessions WHEN old.fts_shard = 16 BEGIN
  INSERT INTO sessions_fts_16(sessions_fts_16, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_16_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 16 OR new.fts_shard = 16 BEGIN
  INSERT INTO sessions_fts_16(sessions_fts_16, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 16;
  INSERT INTO sessions_fts_16(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 16;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_17_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 17;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_17 USING fts5(jkey, summary, content='sessions_fts_17_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_17(sessions_fts_17, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_17_ai AFTER INSERT ON sessions WHEN new.fts_shard = 17 BEGIN
  INSERT INTO sessions_fts_17(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_17_ad AFTER DELETE ON sessions WHEN old.fts_shard = 17 BEGIN
  INSERT INTO sessions_fts_17(sessions_fts_17, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_17_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 17 OR new.fts_shard = 17 BEGIN
  INSERT INTO sessions_fts_17(sessions_fts_17, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 17;
  INSERT INTO sessions_fts_17(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 17;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_18_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 18;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_18 USING fts5(jkey, summary, content='sessions_fts_18_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_18(sessions_fts_18, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_18_ai AFTER INSERT ON sessions WHEN new.fts_shard = 18 BEGIN
  INSERT INTO sessions_fts_18(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_18_ad AFTER DELETE ON sessions WHEN old.fts_shard = 18 BEGIN
  INSERT INTO sessions_fts_18(sessions_fts_18, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_18_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 18 OR new.fts_shard = 18 BEGIN
  INSERT INTO sessions_fts_18(sessions_fts_18, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 18;
  INSERT INTO sessions_fts_18(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 18;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_19_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 19;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_19 USING fts5(jkey, summary, content='sessions_fts_19_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_19(sessions_fts_19, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_19_ai AFTER INSERT ON sessions WHEN new.fts_shard = 19 BEGIN
  INSERT INTO sessions_fts_19(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_19_ad AFTER DELETE ON sessions WHEN old.fts_shard = 19 BEGIN
  INSERT INTO sessions_fts_19(sessions_fts_19, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_19_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 19 OR new.fts_shard = 19 BEGIN
  INSERT INTO sessions_fts_19(sessions_fts_19, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 19;
  INSERT INTO sessions_fts_19(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 19;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_20_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 20;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_20 USING fts5(jkey, summary, content='sessions_fts_20_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_20(sessions_fts_20, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_20_ai AFTER INSERT ON sessions WHEN new.fts_shard = 20 BEGIN
  INSERT INTO sessions_fts_20(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_20_ad AFTER DELETE ON sessions WHEN old.fts_shard = 20 BEGIN
  INSERT INTO sessions_fts_20(sessions_fts_20, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_20_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 20 OR new.fts_shard = 20 BEGIN
  INSERT INTO sessions_fts_20(sessions_fts_20, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 20;
  INSERT INTO sessions_fts_20(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 20;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_21_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 21;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_21 USING fts5(jkey, summary, content='sessions_fts_21_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_21(sessions_fts_21, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_21_ai AFTER INSERT ON sessions WHEN new.fts_shard = 21 BEGIN
  INSERT INTO sessions_fts_21(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_21_ad AFTER DELETE ON sessions WHEN old.fts_shard = 21 BEGIN
  INSERT INTO sessions_fts_21(sessions_fts_21, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_21_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 21 OR new.fts_shard = 21 BEGIN
  INSERT INTO sessions_fts_21(sessions_fts_21, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 21;
  INSERT INTO sessions_fts_21(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 21;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_22_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 22;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_22 USING fts5(jkey, summary, content='sessions_fts_22_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_22(sessions_fts_22, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_22_ai AFTER INSERT ON sessions WHEN new.fts_shard = 22 BEGIN
  INSERT INTO sessions_fts_22(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_22_ad AFTER DELETE ON sessions WHEN old.fts_shard = 22 BEGIN
  INSERT INTO sessions_fts_22(sessions_fts_22, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_22_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 22 OR new.fts_shard = 22 BEGIN
  INSERT INTO sessions_fts_22(sessions_fts_22, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 22;
  INSERT INTO sessions_fts_22(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 22;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_23_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 23;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_23 USING fts5(jkey, summary, content='sessions_fts_23_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_23(sessions_fts_23, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_23_ai AFTER INSERT ON sessions WHEN new.fts_shard = 23 BEGIN
  INSERT INTO sessions_fts_23(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_23_ad AFTER DELETE ON sessions WHEN old.fts_shard = 23 BEGIN
  INSERT INTO sessions_fts_23(sessions_fts_23, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_23_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 23 OR new.fts_shard = 23 BEGIN
  INSERT INTO sessions_fts_23(sessions_fts_23, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 23;
  INSERT INTO sessions_fts_23(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 23;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_24_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 24;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_24 USING fts5(jkey, summary, content='sessions_fts_24_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_24(sessions_fts_24, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_24_ai AFTER INSERT ON sessions WHEN new.fts_shard = 24 BEGIN
  INSERT INTO sessions_fts_24(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_24_ad AFTER DELETE ON sessions WHEN old.fts_shard = 24 BEGIN
  INSERT INTO sessions_fts_24(sessions_fts_24, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_24_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 24 OR new.fts_shard = 24 BEGIN
  INSERT INTO sessions_fts_24(sessions_fts_24, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 24;
  INSERT INTO sessions_fts_24(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 24;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_25_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 25;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_25 USING fts5(jkey, summary, content='sessions_fts_25_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_25(sessions_fts_25, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_25_ai AFTER INSERT ON sessions WHEN new.fts_shard = 25 BEGIN
  INSERT INTO sessions_fts_25(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_25_ad AFTER DELETE ON sessions WHEN old.fts_shard = 25 BEGIN
  INSERT INTO sessions_fts_25(sessions_fts_25, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_25_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 25 OR new.fts_shard = 25 BEGIN
  INSERT INTO sessions_fts_25(sessions_fts_25, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 25;
  INSERT INTO sessions_fts_25(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 25;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_26_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 26;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_26 USING fts5(jkey, summary, content='sessions_fts_26_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_26(sessions_fts_26, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_26_ai AFTER INSERT ON sessions WHEN new.fts_shard = 26 BEGIN
  INSERT INTO sessions_fts_26(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_26_ad AFTER DELETE ON sessions WHEN old.fts_shard = 26 BEGIN
  INSERT INTO sessions_fts_26(sessions_fts_26, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_26_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 26 OR new.fts_shard = 26 BEGIN
  INSERT INTO sessions_fts_26(sessions_fts_26, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 26;
  INSERT INTO sessions_fts_26(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 26;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_27_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 27;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_27 USING fts5(jkey, summary, content='sessions_fts_27_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_27(sessions_fts_27, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_27_ai AFTER INSERT ON sessions WHEN new.fts_shard = 27 BEGIN
  INSERT INTO sessions_fts_27(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_27_ad AFTER DELETE ON sessions WHEN old.fts_shard = 27 BEGIN
  INSERT INTO sessions_fts_27(sessions_fts_27, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_27_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 27 OR new.fts_shard = 27 BEGIN
  INSERT INTO sessions_fts_27(sessions_fts_27, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 27;
  INSERT INTO sessions_fts_27(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 27;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_28_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 28;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_28 USING fts5(jkey, summary, content='sessions_fts_28_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_28(sessions_fts_28, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_28_ai AFTER INSERT ON sessions WHEN new.fts_shard = 28 BEGIN
  INSERT INTO sessions_fts_28(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_28_ad AFTER DELETE ON sessions WHEN old.fts_shard = 28 BEGIN
  INSERT INTO sessions_fts_28(sessions_fts_28, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_28_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 28 OR new.fts_shard = 28 BEGIN
  INSERT INTO sessions_fts_28(sessions_fts_28, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 28;
  INSERT INTO sessions_fts_28(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 28;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_29_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 29;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_29 USING fts5(jkey, summary, content='sessions_fts_29_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_29(sessions_fts_29, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_29_ai AFTER INSERT ON sessions WHEN new.fts_shard = 29 BEGIN
  INSERT INTO sessions_fts_29(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_29_ad AFTER DELETE ON sessions WHEN old.fts_shard = 29 BEGIN
  INSERT INTO sessions_fts_29(sessions_fts_29, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_29_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 29 OR new.fts_shard = 29 BEGIN
  INSERT INTO sessions_fts_29(sessions_fts_29, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 29;
  INSERT INTO sessions_fts_29(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 29;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_30_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 30;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_30 USING fts5(jkey, summary, content='sessions_fts_30_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_30(sessions_fts_30, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_30_ai AFTER INSERT ON sessions WHEN new.fts_shard = 30 BEGIN
  INSERT INTO sessions_fts_30(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_30_ad AFTER DELETE ON sessions WHEN old.fts_shard = 30 BEGIN
  INSERT INTO sessions_fts_30(sessions_fts_30, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_30_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 30 OR new.fts_shard = 30 BEGIN
  INSERT INTO sessions_fts_30(sessions_fts_30, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 30;
  INSERT INTO sessions_fts_30(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 30;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_31_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 31;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_31 USING fts5(jkey, summary, content='sessions_fts_31_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_31(sessions_fts_31, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_31_ai AFTER INSERT ON sessions WHEN new.fts_shard = 31 BEGIN
  INSERT INTO sessions_fts_31(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_31_ad AFTER DELETE ON sessions WHEN old.fts_shard = 31 BEGIN
  INSERT INTO sessions_fts_31(sessions_fts_31, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_31_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 31 OR new.fts_shard = 31 BEGIN
  INSERT INTO sessions_fts_31(sessions_fts_31, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 31;
  INSERT INTO sessions_fts_31(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 31;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_32_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 32;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_32 USING fts5(jkey, summary, content='sessions_fts_32_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_32(sessions_fts_32, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_32_ai AFTER INSERT ON sessions WHEN new.fts_shard = 32 BEGIN
  INSERT INTO sessions_fts_32(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_32_ad AFTER DELETE ON sessions WHEN old.fts_shard = 32 BEGIN
  INSERT INTO sessions_fts_32(sessions_fts_32, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_32_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 32 OR new.fts_shard = 32 BEGIN
  INSERT INTO sessions_fts_32(sessions_fts_32, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 32;
  INSERT INTO sessions_fts_32(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 32;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_33_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 33;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_33 USING fts5(jkey, summary, content='sessions_fts_33_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_33(sessions_fts_33, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_33_ai AFTER INSERT ON sessions WHEN new.fts_shard = 33 BEGIN
  INSERT INTO sessions_fts_33(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_33_ad AFTER DELETE ON sessions WHEN old.fts_shard = 33 BEGIN
  INSERT INTO sessions_fts_33(sessions_fts_33, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_33_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 33 OR new.fts_shard = 33 BEGIN
  INSERT INTO sessions_fts_33(sessions_fts_33, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 33;
  INSERT INTO sessions_fts_33(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 33;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_34_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 34;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_34 USING fts5(jkey, summary, content='sessions_fts_34_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_34(sessions_fts_34, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_34_ai AFTER INSERT ON sessions WHEN new.fts_shard = 34 BEGIN
  INSERT INTO sessions_fts_34(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_34_ad AFTER DELETE ON sessions WHEN old.fts_shard = 34 BEGIN
  INSERT INTO sessions_fts_34(sessions_fts_34, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_34_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 34 OR new.fts_shard = 34 BEGIN
  INSERT INTO sessions_fts_34(sessions_fts_34, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 34;
  INSERT INTO sessions_fts_34(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 34;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_35_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 35;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_35 USING fts5(jkey, summary, content='sessions_fts_35_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_35(sessions_fts_35, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_35_ai AFTER INSERT ON sessions WHEN new.fts_shard = 35 BEGIN
  INSERT INTO sessions_fts_35(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_35_ad AFTER DELETE ON sessions WHEN old.fts_shard = 35 BEGIN
  INSERT INTO sessions_fts_35(sessions_fts_35, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_35_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 35 OR new.fts_shard = 35 BEGIN
  INSERT INTO sessions_fts_35(sessions_fts_35, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 35;
  INSERT INTO sessions_fts_35(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 35;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_36_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 36;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_36 USING fts5(jkey, summary, content='sessions_fts_36_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_36(sessions_fts_36, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_36_ai AFTER INSERT ON sessions WHEN new.fts_shard = 36 BEGIN
  INSERT INTO sessions_fts_36(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_36_ad AFTER DELETE ON sessions WHEN old.fts_shard = 36 BEGIN
  INSERT INTO sessions_fts_36(sessions_fts_36, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_36_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 36 OR new.fts_shard = 36 BEGIN
  INSERT INTO sessions_fts_36(sessions_fts_36, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 36;
  INSERT INTO sessions_fts_36(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 36;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_37_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 37;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_37 USING fts5(jkey, summary, content='sessions_fts_37_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_37(sessions_fts_37, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_37_ai AFTER INSERT ON sessions WHEN new.fts_shard = 37 BEGIN
  INSERT INTO sessions_fts_37(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_37_ad AFTER DELETE ON sessions WHEN old.fts_shard = 37 BEGIN
  INSERT INTO sessions_fts_37(sessions_fts_37, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_37_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 37 OR new.fts_shard = 37 BEGIN
  INSERT INTO sessions_fts_37(sessions_fts_37, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 37;
  INSERT INTO sessions_fts_37(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 37;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_38_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 38;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_38 USING fts5(jkey, summary, content='sessions_fts_38_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_38(sessions_fts_38, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_38_ai AFTER INSERT ON sessions WHEN new.fts_shard = 38 BEGIN
  INSERT INTO sessions_fts_38(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_38_ad AFTER DELETE ON sessions WHEN old.fts_shard = 38 BEGIN
  INSERT INTO sessions_fts_38(sessions_fts_38, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_38_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 38 OR new.fts_shard = 38 BEGIN
  INSERT INTO sessions_fts_38(sessions_fts_38, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 38;
  INSERT INTO sessions_fts_38(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 38;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_39_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 39;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_39 USING fts5(jkey, summary, content='sessions_fts_39_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_39(sessions_fts_39, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_39_ai AFTER INSERT ON sessions WHEN new.fts_shard = 39 BEGIN
  INSERT INTO sessions_fts_39(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_39_ad AFTER DELETE ON sessions WHEN old.fts_shard = 39 BEGIN
  INSERT INTO sessions_fts_39(sessions_fts_39, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_39_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 39 OR new.fts_shard = 39 BEGIN
  INSERT INTO sessions_fts_39(sessions_fts_39, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 39;
  INSERT INTO sessions_fts_39(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 39;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_40_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 40;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_40 USING fts5(jkey, summary, content='sessions_fts_40_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_40(sessions_fts_40, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_40_ai AFTER INSERT ON sessions WHEN new.fts_shard = 40 BEGIN
  INSERT INTO sessions_fts_40(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_40_ad AFTER DELETE ON sessions WHEN old.fts_shard = 40 BEGIN
  INSERT INTO sessions_fts_40(sessions_fts_40, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_40_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 40 OR new.fts_shard = 40 BEGIN
  INSERT INTO sessions_fts_40(sessions_fts_40, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 40;
  INSERT INTO sessions_fts_40(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 40;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_41_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 41;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_41 USING fts5(jkey, summary, content='sessions_fts_41_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_41(sessions_fts_41, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_41_ai AFTER INSERT ON sessions WHEN new.fts_shard = 41 BEGIN
  INSERT INTO sessions_fts_41(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_41_ad AFTER DELETE ON sessions WHEN old.fts_shard = 41 BEGIN
  INSERT INTO sessions_fts_41(sessions_fts_41, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_41_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 41 OR new.fts_shard = 41 BEGIN
  INSERT INTO sessions_fts_41(sessions_fts_41, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 41;
  INSERT INTO sessions_fts_41(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 41;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_42_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 42;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_42 USING fts5(jkey, summary, content='sessions_fts_42_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_42(sessions_fts_42, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_42_ai AFTER INSERT ON sessions WHEN new.fts_shard = 42 BEGIN
  INSERT INTO sessions_fts_42(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_42_ad AFTER DELETE ON sessions WHEN old.fts_shard = 42 BEGIN
  INSERT INTO sessions_fts_42(sessions_fts_42, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_42_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 42 OR new.fts_shard = 42 BEGIN
  INSERT INTO sessions_fts_42(sessions_fts_42, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 42;
  INSERT INTO sessions_fts_42(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 42;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_43_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 43;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_43 USING fts5(jkey, summary, content='sessions_fts_43_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_43(sessions_fts_43, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_43_ai AFTER INSERT ON sessions WHEN new.fts_shard = 43 BEGIN
  INSERT INTO sessions_fts_43(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_43_ad AFTER DELETE ON sessions WHEN old.fts_shard = 43 BEGIN
  INSERT INTO sessions_fts_43(sessions_fts_43, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_43_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 43 OR new.fts_shard = 43 BEGIN
  INSERT INTO sessions_fts_43(sessions_fts_43, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 43;
  INSERT INTO sessions_fts_43(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 43;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_44_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 44;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_44 USING fts5(jkey, summary, content='sessions_fts_44_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_44(sessions_fts_44, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_44_ai AFTER INSERT ON sessions WHEN new.fts_shard = 44 BEGIN
  INSERT INTO sessions_fts_44(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_44_ad AFTER DELETE ON sessions WHEN old.fts_shard = 44 BEGIN
  INSERT INTO sessions_fts_44(sessions_fts_44, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_44_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 44 OR new.fts_shard = 44 BEGIN
  INSERT INTO sessions_fts_44(sessions_fts_44, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 44;
  INSERT INTO sessions_fts_44(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 44;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_45_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 45;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_45 USING fts5(jkey, summary, content='sessions_fts_45_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_45(sessions_fts_45, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_45_ai AFTER INSERT ON sessions WHEN new.fts_shard = 45 BEGIN
  INSERT INTO sessions_fts_45(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_45_ad AFTER DELETE ON sessions WHEN old.fts_shard = 45 BEGIN
  INSERT INTO sessions_fts_45(sessions_fts_45, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_45_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 45 OR new.fts_shard = 45 BEGIN
  INSERT INTO sessions_fts_45(sessions_fts_45, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 45;
  INSERT INTO sessions_fts_45(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 45;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_46_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 46;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_46 USING fts5(jkey, summary, content='sessions_fts_46_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_46(sessions_fts_46, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_46_ai AFTER INSERT ON sessions WHEN new.fts_shard = 46 BEGIN
  INSERT INTO sessions_fts_46(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_46_ad AFTER DELETE ON sessions WHEN old.fts_shard = 46 BEGIN
  INSERT INTO sessions_fts_46(sessions_fts_46, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_46_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 46 OR new.fts_shard = 46 BEGIN
  INSERT INTO sessions_fts_46(sessions_fts_46, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 46;
  INSERT INTO sessions_fts_46(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 46;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_47_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 47;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_47 USING fts5(jkey, summary, content='sessions_fts_47_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_47(sessions_fts_47, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_47_ai AFTER INSERT ON sessions WHEN new.fts_shard = 47 BEGIN
  INSERT INTO sessions_fts_47(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_47_ad AFTER DELETE ON sessions WHEN old.fts_shard = 47 BEGIN
  INSERT INTO sessions_fts_47(sessions_fts_47, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_47_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 47 OR new.fts_shard = 47 BEGIN
  INSERT INTO sessions_fts_47(sessions_fts_47, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 47;
  INSERT INTO sessions_fts_47(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 47;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_48_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 48;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_48 USING fts5(jkey, summary, content='sessions_fts_48_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_48(sessions_fts_48, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_48_ai AFTER INSERT ON sessions WHEN new.fts_shard = 48 BEGIN
  INSERT INTO sessions_fts_48(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_48_ad AFTER DELETE ON sessions WHEN old.fts_shard = 48 BEGIN
  INSERT INTO sessions_fts_48(sessions_fts_48, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_48_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 48 OR new.fts_shard = 48 BEGIN
  INSERT INTO sessions_fts_48(sessions_fts_48, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 48;
  INSERT INTO sessions_fts_48(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 48;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_49_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 49;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_49 USING fts5(jkey, summary, content='sessions_fts_49_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_49(sessions_fts_49, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_49_ai AFTER INSERT ON sessions WHEN new.fts_shard = 49 BEGIN
  INSERT INTO sessions_fts_49(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_49_ad AFTER DELETE ON sessions WHEN old.fts_shard = 49 BEGIN
  INSERT INTO sessions_fts_49(sessions_fts_49, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_49_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 49 OR new.fts_shard = 49 BEGIN
  INSERT INTO sessions_fts_49(sessions_fts_49, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 49;
  INSERT INTO sessions_fts_49(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 49;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_50_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 50;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_50 USING fts5(jkey, summary, content='sessions_fts_50_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_50(sessions_fts_50, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_50_ai AFTER INSERT ON sessions WHEN new.fts_shard = 50 BEGIN
  INSERT INTO sessions_fts_50(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_50_ad AFTER DELETE ON sessions WHEN old.fts_shard = 50 BEGIN
  INSERT INTO sessions_fts_50(sessions_fts_50, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_50_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 50 OR new.fts_shard = 50 BEGIN
  INSERT INTO sessions_fts_50(sessions_fts_50, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 50;
  INSERT INTO sessions_fts_50(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 50;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_51_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 51;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_51 USING fts5(jkey, summary, content='sessions_fts_51_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_51(sessions_fts_51, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_51_ai AFTER INSERT ON sessions WHEN new.fts_shard = 51 BEGIN
  INSERT INTO sessions_fts_51(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_51_ad AFTER DELETE ON sessions WHEN old.fts_shard = 51 BEGIN
  INSERT INTO sessions_fts_51(sessions_fts_51, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_51_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 51 OR new.fts_shard = 51 BEGIN
  INSERT INTO sessions_fts_51(sessions_fts_51, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 51;
  INSERT INTO sessions_fts_51(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 51;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_52_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 52;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_52 USING fts5(jkey, summary, content='sessions_fts_52_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_52(sessions_fts_52, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_52_ai AFTER INSERT ON sessions WHEN new.fts_shard = 52 BEGIN
  INSERT INTO sessions_fts_52(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_52_ad AFTER DELETE ON sessions WHEN old.fts_shard = 52 BEGIN
  INSERT INTO sessions_fts_52(sessions_fts_52, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_52_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 52 OR new.fts_shard = 52 BEGIN
  INSERT INTO sessions_fts_52(sessions_fts_52, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 52;
  INSERT INTO sessions_fts_52(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 52;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_53_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 53;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_53 USING fts5(jkey, summary, content='sessions_fts_53_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_53(sessions_fts_53, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_53_ai AFTER INSERT ON sessions WHEN new.fts_shard = 53 BEGIN
  INSERT INTO sessions_fts_53(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_53_ad AFTER DELETE ON sessions WHEN old.fts_shard = 53 BEGIN
  INSERT INTO sessions_fts_53(sessions_fts_53, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_53_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 53 OR new.fts_shard = 53 BEGIN
  INSERT INTO sessions_fts_53(sessions_fts_53, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 53;
  INSERT INTO sessions_fts_53(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 53;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_54_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 54;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_54 USING fts5(jkey, summary, content='sessions_fts_54_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_54(sessions_fts_54, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_54_ai AFTER INSERT ON sessions WHEN new.fts_shard = 54 BEGIN
  INSERT INTO sessions_fts_54(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_54_ad AFTER DELETE ON sessions WHEN old.fts_shard = 54 BEGIN
  INSERT INTO sessions_fts_54(sessions_fts_54, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_54_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 54 OR new.fts_shard = 54 BEGIN
  INSERT INTO sessions_fts_54(sessions_fts_54, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 54;
  INSERT INTO sessions_fts_54(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 54;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_55_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 55;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_55 USING fts5(jkey, summary, content='sessions_fts_55_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_55(sessions_fts_55, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_55_ai AFTER INSERT ON sessions WHEN new.fts_shard = 55 BEGIN
  INSERT INTO sessions_fts_55(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_55_ad AFTER DELETE ON sessions WHEN old.fts_shard = 55 BEGIN
  INSERT INTO sessions_fts_55(sessions_fts_55, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_55_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 55 OR new.fts_shard = 55 BEGIN
  INSERT INTO sessions_fts_55(sessions_fts_55, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 55;
  INSERT INTO sessions_fts_55(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 55;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_56_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 56;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_56 USING fts5(jkey, summary, content='sessions_fts_56_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_56(sessions_fts_56, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_56_ai AFTER INSERT ON sessions WHEN new.fts_shard = 56 BEGIN
  INSERT INTO sessions_fts_56(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_56_ad AFTER DELETE ON sessions WHEN old.fts_shard = 56 BEGIN
  INSERT INTO sessions_fts_56(sessions_fts_56, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_56_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 56 OR new.fts_shard = 56 BEGIN
  INSERT INTO sessions_fts_56(sessions_fts_56, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 56;
  INSERT INTO sessions_fts_56(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 56;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_57_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 57;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_57 USING fts5(jkey, summary, content='sessions_fts_57_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_57(sessions_fts_57, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_57_ai AFTER INSERT ON sessions WHEN new.fts_shard = 57 BEGIN
  INSERT INTO sessions_fts_57(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_57_ad AFTER DELETE ON sessions WHEN old.fts_shard = 57 BEGIN
  INSERT INTO sessions_fts_57(sessions_fts_57, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_57_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 57 OR new.fts_shard = 57 BEGIN
  INSERT INTO sessions_fts_57(sessions_fts_57, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 57;
  INSERT INTO sessions_fts_57(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 57;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_58_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 58;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_58 USING fts5(jkey, summary, content='sessions_fts_58_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_58(sessions_fts_58, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_58_ai AFTER INSERT ON sessions WHEN new.fts_shard = 58 BEGIN
  INSERT INTO sessions_fts_58(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_58_ad AFTER DELETE ON sessions WHEN old.fts_shard = 58 BEGIN
  INSERT INTO sessions_fts_58(sessions_fts_58, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_58_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 58 OR new.fts_shard = 58 BEGIN
  INSERT INTO sessions_fts_58(sessions_fts_58, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 58;
  INSERT INTO sessions_fts_58(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 58;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_59_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 59;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_59 USING fts5(jkey, summary, content='sessions_fts_59_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_59(sessions_fts_59, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_59_ai AFTER INSERT ON sessions WHEN new.fts_shard = 59 BEGIN
  INSERT INTO sessions_fts_59(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_59_ad AFTER DELETE ON sessions WHEN old.fts_shard = 59 BEGIN
  INSERT INTO sessions_fts_59(sessions_fts_59, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_59_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 59 OR new.fts_shard = 59 BEGIN
  INSERT INTO sessions_fts_59(sessions_fts_59, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 59;
  INSERT INTO sessions_fts_59(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 59;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_60_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 60;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_60 USING fts5(jkey, summary, content='sessions_fts_60_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_60(sessions_fts_60, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_60_ai AFTER INSERT ON sessions WHEN new.fts_shard = 60 BEGIN
  INSERT INTO sessions_fts_60(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_60_ad AFTER DELETE ON sessions WHEN old.fts_shard = 60 BEGIN
  INSERT INTO sessions_fts_60(sessions_fts_60, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_60_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 60 OR new.fts_shard = 60 BEGIN
  INSERT INTO sessions_fts_60(sessions_fts_60, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 60;
  INSERT INTO sessions_fts_60(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 60;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_61_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 61;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_61 USING fts5(jkey, summary, content='sessions_fts_61_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_61(sessions_fts_61, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_61_ai AFTER INSERT ON sessions WHEN new.fts_shard = 61 BEGIN
  INSERT INTO sessions_fts_61(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_61_ad AFTER DELETE ON sessions WHEN old.fts_shard = 61 BEGIN
  INSERT INTO sessions_fts_61(sessions_fts_61, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_61_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 61 OR new.fts_shard = 61 BEGIN
  INSERT INTO sessions_fts_61(sessions_fts_61, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 61;
  INSERT INTO sessions_fts_61(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 61;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_62_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 62;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_62 USING fts5(jkey, summary, content='sessions_fts_62_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_62(sessions_fts_62, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_62_ai AFTER INSERT ON sessions WHEN new.fts_shard = 62 BEGIN
  INSERT INTO sessions_fts_62(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_62_ad AFTER DELETE ON sessions WHEN old.fts_shard = 62 BEGIN
  INSERT INTO sessions_fts_62(sessions_fts_62, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_62_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 62 OR new.fts_shard = 62 BEGIN
  INSERT INTO sessions_fts_62(sessions_fts_62, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 62;
  INSERT INTO sessions_fts_62(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 62;
END;
--> statement-breakpoint
CREATE VIEW sessions_fts_63_source AS SELECT seq, jkey, summary FROM sessions WHERE fts_shard = 63;
--> statement-breakpoint
CREATE VIRTUAL TABLE sessions_fts_63 USING fts5(jkey, summary, content='sessions_fts_63_source', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO sessions_fts_63(sessions_fts_63, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER sessions_fts_63_ai AFTER INSERT ON sessions WHEN new.fts_shard = 63 BEGIN
  INSERT INTO sessions_fts_63(rowid, jkey, summary) VALUES (new.seq, new.jkey, new.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_63_ad AFTER DELETE ON sessions WHEN old.fts_shard = 63 BEGIN
  INSERT INTO sessions_fts_63(sessions_fts_63, rowid, jkey, summary) VALUES ('delete', old.seq, old.jkey, old.summary);
END;
--> statement-breakpoint
CREATE TRIGGER sessions_fts_63_au AFTER UPDATE OF seq, journey_id, summary ON sessions WHEN old.fts_shard = 63 OR new.fts_shard = 63 BEGIN
  INSERT INTO sessions_fts_63(sessions_fts_63, rowid, jkey, summary) SELECT 'delete', old.seq, old.jkey, old.summary WHERE old.fts_shard = 63;
  INSERT INTO sessions_fts_63(rowid, jkey, summary) SELECT new.seq, new.jkey, new.summary WHERE new.fts_shard = 63;
END;
