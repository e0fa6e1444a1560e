package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelines over a journal that gained columns: their rows (results and late events, composite keys, a filter and a
 * value on the new columns) equal those of a journal created with every column whose earlier events carry the
 * defaults; a pipeline that does not use the new columns resumes from the checkpoint it took before they were added,
 * its configuration string unchanged, for a journal of the default schema too.
 */
class AddedColumnsPipelineTest
{
    private static final JournalSchema FOUR = JournalSchema.parse("country:string,card:string,amount:decimal(2),fee:long");
    private static final JournalSchema SIX = JournalSchema.parse(FOUR + ",channel:string=web,tip:decimal(2)=0.5");
    private static final String[] COUNTRIES = {"NL", "FR", "DE"};
    private static final String[] CHANNELS = {"web", "app", "web", "pos"};
    private static final int EVENTS = 1_200;
    private static final int ADDED_AT = 600;

    @TempDir
    Path dir;

    @Test
    void theRowsOfAJournalThatGainedColumnsEqualThoseOfOneCreatedWithThem()
    {
        final Path evolved = dir.resolve("evolved");
        final Path created = dir.resolve("created");
        appendPayments(evolved, FOUR, 0, ADDED_AT);
        appendPayments(evolved, SIX, ADDED_AT, EVENTS);
        appendPayments(created, SIX.withoutDefaults(), 0, EVENTS);
        assertEquals(2, JournalDirectory.open(evolved).schema().generation());
        assertEquals(1, JournalDirectory.open(created).schema().generation());

        final java.util.Map<String, UnaryOperator<PipelineBuilder>> pipelines = java.util.Map.of(
            "by-country-channel", b -> b.keyColumns("country", "channel").value("amount + tip").where("channel = 'web' or fee > 2"),
            "by-channel", b -> b.keyColumn("channel").valueColumn("tip"),
            "by-card-tip", b -> b.keyColumns("card", "tip").valueColumn("amount").where("tip = 0.50"),
            "old-columns", b -> b.keyColumn("country").valueColumn("amount"));
        for (final String name : pipelines.keySet())
        {
            final RunSummary a = pipelines.get(name).apply(builder(evolved).pipeline(name)).build().runToEnd();
            final RunSummary b = pipelines.get(name).apply(builder(created).pipeline(name)).build().runToEnd();
            assertEquals(b.events(), a.events());
            assertEquals(b.filtered(), a.filtered());
            final List<String> rows = outputs(JournalDirectory.open(evolved).pipeline(name));
            assertEquals(outputs(JournalDirectory.open(created).pipeline(name)), rows, name);
            assertTrue(rows.stream().anyMatch(r -> r.startsWith("R ")) && rows.stream().anyMatch(r -> r.startsWith("L ")), name + ": " + rows);
        }
        assertTrue(builder(evolved).pipeline("x").keyColumns("country", "channel").value("amount + tip")
            .where("channel = 'web' or fee > 2").build().runToEnd().filtered() > 0, "the filter rejects some events");
    }

    @Test
    void aPipelineOnTheColumnsItHadResumesFromItsCheckpointAfterColumnsAreAdded() throws Exception
    {
        final UnaryOperator<PipelineBuilder> pipeline = b -> b.keyColumn("country").valueColumn("amount").where("fee > 0");
        final Path resumed = dir.resolve("resumed");
        final List<String> expected = uninterrupted(pipeline);
        appendPayments(resumed, FOUR, 0, ADDED_AT);
        final String before = followAndStop(resumed, pipeline, false);
        appendPayments(resumed, SIX, ADDED_AT, EVENTS);
        assertEquals(before, followAndStop(resumed, pipeline, true), "the configuration string");
        pipeline.apply(builder(resumed)).build().runToEnd();
        assertEquals(expected, outputs(JournalDirectory.open(resumed)));
    }

    @Test
    void aFollowingPipelineReadsOnWhileTheJournalGainsColumns() throws Exception
    {
        final UnaryOperator<PipelineBuilder> pipeline = b -> b.keyColumns("country", "card").valueColumn("amount");
        final Path live = dir.resolve("live");
        final List<String> expected = uninterrupted(pipeline);
        appendPayments(live, FOUR, 0, ADDED_AT);
        try (Pipeline running = pipeline.apply(builder(live)).build().start())
        {
            appendPayments(live, SIX, ADDED_AT, EVENTS);
            assertTrue(running.awaitOffset(lastOffset(live), 60, TimeUnit.SECONDS), "read on past the columns' addition");
            running.stop();
        }
        pipeline.apply(builder(live)).build().runToEnd();
        assertEquals(expected, outputs(JournalDirectory.open(live)));
    }

    @Test
    void aPipelineOfAJournalOfTheDefaultSchemaResumesFromItsCheckpointAfterColumnsAreAdded() throws Exception
    {
        final JournalSchema added = JournalSchema.parse(JournalSchema.DEFAULT + ",channel:string=web,fee:decimal(2)=0");
        final Path resumed = dir.resolve("resumed");
        final Path clean = dir.resolve("clean");
        appendKeys(clean, null, 0, ADDED_AT);
        appendKeys(clean, added, ADDED_AT, EVENTS);
        builder(clean).build().runToEnd();

        appendKeys(resumed, null, 0, ADDED_AT);
        final String before = followAndStop(resumed, UnaryOperator.identity(), false);
        appendKeys(resumed, added, ADDED_AT, EVENTS);
        assertEquals(before, followAndStop(resumed, UnaryOperator.identity(), true), "the configuration string");
        assertFalse(before.contains("key="), "the default projection adds nothing to it: " + before);
        builder(resumed).build().runToEnd();
        assertEquals(outputs(JournalDirectory.open(clean)), outputs(JournalDirectory.open(resumed)));
        // a new pipeline may use the new column over the whole journal: the earlier events read its default
        final List<String> channels = new ArrayList<>();
        builder(resumed).keyColumns("key", "channel").valueColumn("fee").replayRange(-1, Long.MAX_VALUE)
            .onResult(r -> channels.add(r.keyId() + ":" + r.count())).build().runToEnd();
        assertFalse(channels.isEmpty());
    }

    /** @return the rows a pipeline gives run once over a journal of the payments that gains its columns half way. */
    private List<String> uninterrupted(final UnaryOperator<PipelineBuilder> pipeline)
    {
        final Path clean = dir.resolve("clean");
        appendPayments(clean, FOUR, 0, ADDED_AT);
        appendPayments(clean, SIX, ADDED_AT, EVENTS);
        pipeline.apply(builder(clean)).build().runToEnd();
        return outputs(JournalDirectory.open(clean));
    }

    private static long lastOffset(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }

    /**
     * Follow a journal to its last event, then stop (which checkpoints).
     *
     * @param resumes true if the run must resume from a checkpoint, false if it must start fresh.
     * @return the pipeline's configuration string.
     */
    private String followAndStop(final Path journal, final UnaryOperator<PipelineBuilder> pipeline, final boolean resumes) throws Exception
    {
        final String configuration = pipeline.apply(builder(journal)).conclude().describe();
        final Pipeline running = pipeline.apply(builder(journal)).checkpointEvery(97).build().start();
        assertTrue(running.awaitOffset(lastOffset(journal), 60, TimeUnit.SECONDS), "caught up with the journal");
        final RunSummary summary = running.stop();
        assertEquals(resumes, summary.resumedAfterOffset() >= 0, "resumed from the checkpoint taken before the columns were added");
        return configuration;
    }

    private static PipelineBuilder builder(final Path journal)
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(100).allowedLateness(200)
            .latePolicy(LatePolicy.SIDE);
    }

    /**
     * Append payments {@code from} to {@code to} (exclusive) of one deterministic sequence to a journal of four or six
     * columns; in six, the events before {@link #ADDED_AT} carry the defaults (web, 0.50). Every 40th is late.
     */
    private static void appendPayments(final Path journal, final JournalSchema schema, final int from, final int to)
    {
        final SplittableRandom random = new SplittableRandom(29);
        try (EventJournal writer = EventJournal.openOrCreate(journal, schema))
        {
            final boolean six = writer.schema().size() == 6;
            for (int i = 0; i < to; i++)
            {
                final long time = 10_000 + i * 37L - (i % 40 == 39 ? 2_000 : 0);
                final String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
                final String card = "c" + random.nextInt(12);
                final long amount = 1 + random.nextInt(10_000);
                final long fee = random.nextInt(4);
                final String channel = CHANNELS[random.nextInt(CHANNELS.length)];
                final long tip = random.nextInt(3) * 25;
                if (i < from)
                {
                    continue;
                }
                final EventRow row = writer.row().eventId(i).eventTime(time).setString(0, writer.stringId(0, country))
                    .setString(1, writer.stringId(1, card)).setLong(2, amount).setLong(3, fee);
                if (six)
                {
                    row.setString(4, writer.stringId(4, i < ADDED_AT ? "web" : channel)).setLong(5, i < ADDED_AT ? 50 : tip);
                }
                writer.append(row);
            }
        }
    }

    /** As {@link #appendPayments}, for a journal of the default schema that gains {@code added}'s columns (null: not yet). */
    private static void appendKeys(final Path journal, final JournalSchema added, final int from, final int to)
    {
        final SplittableRandom random = new SplittableRandom(7);
        try (EventJournal writer = added == null ? EventJournal.openOrCreate(journal) : EventJournal.openOrCreate(journal, added))
        {
            for (int i = 0; i < to; i++)
            {
                final long time = 10_000 + i * 37L - (i % 40 == 39 ? 2_000 : 0);
                final String key = "k" + random.nextInt(9);
                final long value = random.nextInt(1_000);
                final String channel = CHANNELS[random.nextInt(CHANNELS.length)];
                if (i < from)
                {
                    continue;
                }
                if (added == null)
                {
                    writer.append(i, time, key, value);
                }
                else
                {
                    writer.append(writer.row().eventId(i).eventTime(time).setString(0, writer.stringId(0, key)).setLong(1, value)
                        .setString(2, writer.stringId(2, channel)).setLong(3, value % 7));
                }
            }
        }
    }

    /** @return a pipeline's output journal as text rows, in order, without offsets (the journals' offsets may differ). */
    private static List<String> outputs(final JournalDirectory directory)
    {
        final List<String> rows = new ArrayList<>();
        try (OutputJournal output = OutputJournal.open(directory))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final ResultDecoder r = stored.result();
                    rows.add("R " + r.kind() + " " + r.windowStart() + "," + r.windowEnd() + "," + r.keyId() + "," + r.count() + "," + r.sum()
                        + "," + r.min() + "," + r.max() + "," + r.version());
                }
                else
                {
                    final LateEventDecoder l = stored.late();
                    rows.add("L " + l.eventId() + "," + l.eventTime() + "," + l.keyId() + "," + l.value());
                }
            });
        }
        return rows;
    }
}
