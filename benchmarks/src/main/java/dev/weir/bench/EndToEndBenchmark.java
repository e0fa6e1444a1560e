package dev.weir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineLayout;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.expr.EventValue;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.schema.EventView;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * How fast does a filled journal turn into results? One invocation runs the whole pipeline (journal
 * read, ring, assignment, aggregation, firing) over {@value #EVENTS} events on 10,000 keys, from a clean
 * state; the score is events per second. {@code output=journal}: the default durable path (every result
 * appended to the output journal with its source offset, a checkpoint every 1,000,000 events and at the
 * end; output journal and checkpoints are deleted before each invocation). {@code output=listener}: a
 * replay with results only handed to a listener (no output journal, no checkpoints). {@code wait} picks
 * the consumers' wait strategy, {@code layout} the thread layout.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class EndToEndBenchmark
{
    static final int EVENTS = 2_000_000;

    @Param({"tumbling", "sliding", "session"})
    public String window;

    @Param({"FUSED", "STAGED"})
    public String layout;

    @Param({"journal", "listener"})
    public String output;

    /**
     * The consumers' wait strategy: yielding (the default for bounded runs), busyspin, sleeping or blocking;
     * not used by the INLINE layout.
     */
    @Param({"yielding"})
    public String wait;

    /**
     * four: the default columns (key, value); six: the same events in a six-column payments journal, keyed by
     * card, valued by amount; six-pair: that journal keyed by the composite {@code card,fee} (fee is fixed
     * per card, so the keys and windows are those of six, and the difference is the composite key's lookup);
     * tables: the six-column journal with two reference tables ({@link Workloads#payments}: a card table of the
     * 10,000 cards, three versions each, and an fx table keyed by country), keyed and valued as six.
     */
    @Param({"four"})
    public String columns;

    /**
     * With {@code columns=tables}, the joins: 0 (the table rows read and passed over), 1 (each event joined, as of
     * its time, to its card's row) or 2 (and to its country's fx row).
     */
    @Param({"0"})
    public int joins;

    /**
     * none: every event; three (with {@code columns=six}): the filter
     * {@code channel = 'online' and country in ('FR', 'DE') and amount > 10.00} (about a third of the events
     * pass) with the computed value {@code amount - fee}: the filtered events still move the watermark;
     * java: the same filter and value written in Java over the event flyweight (string ids as the journal
     * numbered them), to tell the compiled expressions' cost from the filtering's.
     */
    @Param({"none"})
    public String filter;

    private Path journal;

    @Setup(Level.Trial)
    public void fill() throws IOException
    {
        // 10,000 events per second of event time
        if (joins != 0 && !"tables".equals(columns))
        {
            throw new IllegalStateException("joins=" + joins + " joins the tables of the journal of columns=tables");
        }
        journal = "tables".equals(columns) ? Workloads.payments(EVENTS, 10_000, 0.1, 42, 10_000, 3)
            : Workloads.filledJournal(columns, EVENTS, 10_000, 0.1, 42);
    }

    @Setup(Level.Invocation)
    public void cleanState()
    {
        Workloads.deleteOutputs(journal);
    }

    @TearDown(Level.Trial)
    public void remove()
    {
        Workloads.delete(journal.getParent());
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long run(final Blackhole bh)
    {
        final ResultListener sink = r -> bh.consume(r.sum());
        final PipelineBuilder builder = Weir.pipeline();
        if ("listener".equals(output))
        {
            builder.replayRange(-1, Long.MAX_VALUE);
        }
        final PipelineLayout threads = PipelineLayout.valueOf(layout);
        if (threads != PipelineLayout.INLINE)
        {
            builder.waitStrategy(LatencyRun.waitStrategy(wait)); // the inline layout has none
        }
        if ("six".equals(columns) || "tables".equals(columns))
        {
            builder.keyColumn("card").valueColumn("amount");
        }
        if (joins > 0)
        {
            builder.join("cards");
        }
        if (joins > 1)
        {
            builder.join("fx");
        }
        else if ("six-pair".equals(columns))
        {
            builder.keyColumns("card", "fee").valueColumn("amount");
        }
        if (!"none".equals(filter) && "four".equals(columns))
        {
            throw new IllegalStateException("filter=" + filter + " reads the six-column journal: add -p columns=six");
        }
        if ("three".equals(filter))
        {
            builder.where("channel = 'online' and country in ('FR', 'DE') and amount > 10.00").value("amount - fee");
        }
        else if ("java".equals(filter))
        {
            // ids as Workloads interns them: channel online 0; country FR 0, DE 1
            builder.where(e -> e.stringId(5) == 0 && e.stringId(2) <= 1 && e.longColumn(3) > 1_000, "online-fr-de-over-10")
                .value(new EventValue()
                {
                    @Override
                    public long value(final EventView event)
                    {
                        return event.longColumn(3) - 100 * event.longColumn(4);
                    }

                    @Override
                    public int scale()
                    {
                        return 2;
                    }
                }, "amount-fee");
        }
        final RunSummary summary = builder
            .journal(journal)
            .window(spec(window))
            .outOfOrderness(Duration.ofSeconds(1))
            .layout(threads)
            .ringSize(8192)
            .initialWindows(64 * 1024)
            .onResult(sink)
            .build()
            .runToEnd();
        if (summary.events() + summary.filtered() != EVENTS || summary.unmatched() != 0)
        {
            throw new IllegalStateException("processed " + summary.events() + " events, filtered " + summary.filtered() + " and "
                + summary.unmatched() + " unmatched, not " + EVENTS);
        }
        return summary.windowsFired();
    }

    static WindowSpec spec(final String name)
    {
        switch (name)
        {
            case "tumbling":
                return TumblingWindows.of(Duration.ofSeconds(10));
            case "sliding":
                return SlidingWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(2));
            default:
                return SessionWindows.withGap(Duration.ofSeconds(10));
        }
    }
}
