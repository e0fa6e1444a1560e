package com.example.payments;

import java.nio.file.Path;
import java.time.Duration;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.schema.JournalSchema;

/**
 * The service's one rule: approved spend per card per minute, with an early alert as soon as a card's
 * minute passes 1,000.00. Defined once, without a journal, so that production ({@link #on(Path)}) and the
 * unit test (weir-test's driver) run the same definition.
 */
public final class SpendRule
{
    /** The payments journal's columns, as text (as {@code weir ingest --columns} takes them). */
    public static final String COLUMNS_SPEC = "card:string,amount:decimal(2),status:string";

    /** The payments journal's columns. */
    public static final JournalSchema COLUMNS = JournalSchema.parse(COLUMNS_SPEC);

    private SpendRule()
    {
    }

    /**
     * @return the rule, without a journal.
     */
    public static PipelineBuilder define()
    {
        return Weir.pipeline()
            .pipeline("spend")
            .keyColumn("card")
            .valueColumn("amount")
            .where("status = 'approved'")
            .window(TumblingWindows.of(Duration.ofMinutes(1)))
            .outOfOrderness(Duration.ofSeconds(1))
            .earlyWhen("sum >= 1000.00");
    }

    /**
     * @param journal the payments journal.
     * @return the rule over it.
     */
    public static PipelineBuilder on(final Path journal)
    {
        return define().journal(journal);
    }
}
