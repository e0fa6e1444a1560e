package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.JournalDirectory;
import dev.weir.postgres.Delivery;
import dev.weir.postgres.PostgresSink;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How fast does the PostgreSQL sink deliver? An output journal of about 100,000 results (1,000,000 events,
 * 10,000 keys, tumbling 10 s; the setup prints the exact number) is delivered whole into a local server, in transactions of {@code batch}
 * outputs: into an empty table ({@code insert}), or again into a table that already holds every row
 * ({@code redeliver}: the offsets row was deleted, so every upsert finds its version there and changes
 * nothing). The score is the time of one whole delivery; results/s is that number divided by it.
 * Needs a server: {@code WEIR_BENCH_JDBC_URL}, by default the tests' ({@code scripts/test-postgres.sh}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class PostgresDeliveryBenchmark
{
    private static final String URL = System.getenv().getOrDefault(
        "WEIR_BENCH_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/weir_test?user=weir&password=weir");
    private static final String TABLE = "weir_bench_results";

    @Param({"200", "2000", "10000"})
    public int batch;

    @Param({"insert", "redeliver"})
    public String mode;

    private JournalDirectory journal;
    private long expected;
    private PostgresSink sink;

    @Setup(Level.Trial)
    public void outputJournal() throws IOException, SQLException
    {
        final Path dir = Workloads.filledJournal(1_000_000, 10_000, 0.1, 42);
        final RunSummary run = Weir.pipeline().journal(dir).window(TumblingWindows.of(Duration.ofSeconds(10))).outOfOrderness(Duration.ofMillis(100)).build().runToEnd();
        System.out.printf("%n[setup] %,d windows fired into the output journal%n", run.windowsFired());
        journal = JournalDirectory.open(dir);
        expected = run.windowsFired();
        execute("DROP TABLE IF EXISTS " + TABLE);
        sink = PostgresSink.connect(URL, TABLE, batch);
        if (mode.equals("redeliver"))
        {
            sink.deliver(journal);
        }
    }

    @Setup(Level.Iteration)
    public void forget() throws SQLException
    {
        if (mode.equals("insert"))
        {
            execute("TRUNCATE " + TABLE);
        }
        execute("DELETE FROM weir_offsets WHERE journal_id = '" + journal.id() + "'");
        execute("VACUUM ANALYZE " + TABLE);
    }

    @Benchmark
    public long deliver() throws SQLException
    {
        final Delivery delivery = sink.deliver(journal);
        if (delivery.results() != expected || delivery.changed() != (mode.equals("insert") ? expected : 0))
        {
            throw new IllegalStateException("unexpected delivery: " + delivery);
        }
        return delivery.results();
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException
    {
        sink.close();
        execute("DROP TABLE IF EXISTS " + TABLE);
        execute("DELETE FROM weir_offsets WHERE journal_id = '" + journal.id() + "'");
        Workloads.delete(journal.root().getParent());
    }

    private static void execute(final String sql) throws SQLException
    {
        try (Connection connection = DriverManager.getConnection(URL); Statement statement = connection.createStatement())
        {
            statement.execute(sql);
        }
    }
}
