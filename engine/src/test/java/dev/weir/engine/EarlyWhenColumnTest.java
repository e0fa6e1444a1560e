package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An early condition comparing an aggregate with a column ({@code sum>limit}): the column is the event being
 * added's, carried to the window stage in its ring slot, in both layouts.
 */
class EarlyWhenColumnTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("card:string,amount:decimal(2),limit:decimal(2),qty:long");

    @TempDir
    Path dir;

    @Test
    void theConditionSeesTheColumnsOfTheEventBeingAdded()
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            // card a: sums 30, 70, 120; limits 100, 60, 200: the second event's own limit is passed
            append(writer, 1, 1_000, "a", 30_00, 100_00);
            append(writer, 2, 2_000, "a", 40_00, 60_00);
            append(writer, 3, 3_000, "a", 50_00, 200_00);
            // card b: sums 30, 70, 120; limits 100, 100, 110: only the third passes its own (the first's would not change that)
            append(writer, 4, 1_500, "b", 30_00, 100_00);
            append(writer, 5, 2_500, "b", 40_00, 100_00);
            append(writer, 6, 3_500, "b", 50_00, 110_00);
            // card c: never above its limit
            append(writer, 7, 1_700, "c", 10_00, 10_00);
        }
        for (final PipelineLayout layout : PipelineLayout.values())
        {
            final List<String> early = new ArrayList<>();
            final PipelineBuilder builder = Weir.pipeline().journal(journal).pipeline("early-" + layout.name().toLowerCase(java.util.Locale.ROOT)).window(TumblingWindows.of(60_000)).keyColumn("card")
                .valueColumn("amount").earlyWhen("sum > limit").layout(layout).onResult(r ->
                {
                    if (r.kind() == ResultKind.EARLY)
                    {
                        early.add(r.key() + "," + r.count() + "," + r.sum());
                    }
                });
            assertTrue(builder.conclude().describe().contains(" early=sum>limit"), builder.conclude().describe());
            builder.build().runToEnd();
            assertEquals(List.of("a,2,7000", "b,3,12000"), early, layout.toString());
        }
    }

    private static void append(final EventJournal writer, final long id, final long time, final String card, final long amount, final long limit)
    {
        writer.append(writer.row().eventId(id).eventTime(time).setString(0, writer.stringId(0, card)).setLong(1, amount).setLong(2, limit)
            .setLong(3, 1));
    }
}
