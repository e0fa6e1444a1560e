/**
 * What Weir's own tests share across modules, not for users: child JVMs and the kill rounds run on them
 * ({@link dev.weir.testsupport.ChildJvm}, {@link dev.weir.testsupport.KillHarness},
 * {@link dev.weir.testsupport.KillRounds}), a journal's events and outputs read back as text
 * ({@link dev.weir.testsupport.JournalRows}, {@link dev.weir.testsupport.OutputJournalContents}), a small real
 * filesystem ({@link dev.weir.testsupport.Tmpfs}), the tests' Kafka broker ({@link dev.weir.testsupport.KafkaBroker})
 * and PostgreSQL database ({@link dev.weir.testsupport.TestDatabase}, {@link dev.weir.testsupport.TestTables},
 * {@link dev.weir.testsupport.TcpForwarder}).
 */
package dev.weir.testsupport;
