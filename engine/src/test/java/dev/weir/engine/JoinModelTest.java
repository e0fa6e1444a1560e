package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.model.AsOfJoinModel;
import dev.weir.engine.model.JoinCase;
import dev.weir.engine.model.JoinStreamGenerator;
import dev.weir.engine.model.JournalEntry;
import dev.weir.engine.model.ModelConfig;
import dev.weir.engine.model.ModelJoin;
import dev.weir.engine.model.ModelJoins;
import dev.weir.engine.model.ModelOptions;
import dev.weir.engine.model.ModelOutput;
import dev.weir.engine.model.ReferenceModel;
import dev.weir.engine.model.StreamReducer;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.support.EngineRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole pipelines with joins, through the Java API ({@code PipelineBuilder.join}, {@code joinMissing}, table rows
 * appended with {@code journal.table(name).upsert(row)}), against the brute-force {@link AsOfJoinModel} feeding
 * the {@link ReferenceModel}: seeded journals of {@link JoinStreamGenerator} (table rows valid from the past and
 * the future, tombstones, same valid-from twice, keys in no event, keys whose rows come after their events,
 * events out of order within and beyond the lateness, heartbeats), every window kind, each seed in turn with
 * lateness 0 and &gt; 0, late drop and side, join-missing drop and keep. Three rules: one join and a filter
 * comparing an event column with a table column ({@code country != cards.home}); two joins (one with a
 * composite key of a string and a long) and a value naming a table column ({@code amount * fx.rate}); an early
 * condition naming one ({@code sum > cards.limit}). The result rows (in emit order), late rows and the
 * dropped, ignored, filtered and unmatched counts must equal the model's; a failure names the seed and a
 * reduced journal.
 */
@Tag("slow")
class JoinModelTest
{
    private static final int SEEDS = Integer.getInteger("weir.join.seeds", 16);

    @TempDir
    Path dir;

    private final AtomicInteger runs = new AtomicInteger();

    /** A rule: the engine's text, and the model's own predicate and value written by hand. */
    private record Rule(
        String name, List<ModelJoin> joins, String where, String value, String early,
        Predicate<ModelJoins.Columns> modelWhere, ToLongFunction<ModelJoins.Columns> modelValue, boolean earlyOverLimit)
    {
    }

    private static final ModelJoin CARDS = new ModelJoin("cards", List.of("card"));
    private static final ModelJoin FX = new ModelJoin("fx", List.of("ccy", "tier"));

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aFilterComparingAnEventColumnWithATableColumnAgreesWithTheModel(final WindowKind kind)
    {
        check(kind, new Rule("home", List.of(CARDS), "country != cards.home", null, null,
            c -> !c.stringOf("country").equals(c.stringOf("cards.home")), c -> c.longOf("amount"), false));
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void twoJoinsAndAValueNamingATableColumnAgreeWithTheModel(final WindowKind kind)
    {
        check(kind, new Rule("fx", List.of(CARDS, FX), "amount > cards.limit or cards.segment = 'gold'", "amount * fx.rate", null,
            c -> c.longOf("amount") > c.longOf("cards.limit") || c.stringOf("cards.segment").equals("gold"),
            c -> c.longOf("amount") * c.longOf("fx.rate"), false));
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void anEarlyConditionNamingATableColumnAgreesWithTheModel(final WindowKind kind)
    {
        check(kind, new Rule("limit", List.of(CARDS), null, null, "sum > cards.limit", c -> true, c -> c.longOf("amount"), true));
    }

    private void check(final WindowKind kind, final Rule rule)
    {
        long unmatched = 0;
        for (int i = 0; i < SEEDS; i++)
        {
            final long seed = 9_000_011L * i + 31L * kind.ordinal() + rule.name().hashCode();
            final JoinCase generated = JoinStreamGenerator.generate(seed, kind);
            final ModelConfig g = generated.config();
            final ModelConfig config = new ModelConfig(kind, g.size(), g.slide(), g.outOfOrderness(),
                (i & 1) == 0 ? 0 : Math.max(1, g.allowedLateness()), (i & 2) != 0);
            final JoinCase c = new JoinCase(seed, config, generated.keyColumn(), generated.tables(), generated.journal());
            final boolean keep = (i & 4) != 0;
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final String where = "rule " + rule.name() + (keep ? " --join-missing keep" : "") + ", " + layout + "\n";

            final Expected model = model(c.journal(), c, rule, keep);
            final EngineRun engine = engine(c.journal(), c, rule, keep, layout);
            if (!model.agreesWith(engine))
            {
                final List<JournalEntry> reduced = StreamReducer.reduce(c.journal(),
                    j -> !model(j, c, rule, keep).agreesWith(engine(j, c, rule, keep, layout)));
                final String described = where + c.withJournal(reduced).describe();
                final Expected m = model(reduced, c, rule, keep);
                final EngineRun e = engine(reduced, c, rule, keep, layout);
                assertEquals(m.output.results(), e.results, () -> "results in emission order, " + described);
                assertEquals(m.output.late(), e.late, () -> "late rows, " + described);
                assertEquals(m.output.dropped(), e.dropped, () -> "dropped, " + described);
                assertEquals(m.output.ignored(), e.ignored, () -> "ignored, " + described);
                assertEquals(m.outcome.filtered(), e.filtered, () -> "filtered, " + described);
                assertEquals(m.outcome.unmatched(), e.unmatched, () -> "unmatched, " + described);
            }
            unmatched += model.outcome.unmatched();
        }
        assertTrue(unmatched > 0, "some events had no row");
    }

    /** The model's answer. */
    private record Expected(ModelJoins.Outcome outcome, ModelOutput output)
    {
        boolean agreesWith(final EngineRun e)
        {
            return output.results().equals(e.results) && output.late().equals(e.late) && output.dropped() == e.dropped
                && output.ignored() == e.ignored && outcome.filtered() == e.filtered && outcome.unmatched() == e.unmatched;
        }
    }

    private static Expected model(final List<JournalEntry> journal, final JoinCase c, final Rule rule, final boolean keep)
    {
        final List<AsOfJoinModel.Joined> joined = AsOfJoinModel.join(journal, c.tables(), rule.joins(), c.horizonLag());
        final ModelJoins.Outcome outcome = ModelJoins.apply(joined, c.tables(), rule.joins(), keep, rule.modelWhere(), rule.modelValue());
        final ModelOptions options = rule.earlyOverLimit()
            ? new ModelOptions(false, rule.early(), a -> a[1] > outcome.columns().get(a[4]).longOf("cards.limit"))
            : ModelOptions.NONE;
        return new Expected(outcome, ReferenceModel.run(outcome.stream(), c.config(), options, outcome.firstSeen()));
    }

    private EngineRun engine(final List<JournalEntry> journal, final JoinCase c, final Rule rule, final boolean keep, final PipelineLayout layout)
    {
        return EngineRun.pipelineWithTables(c.withJournal(journal), dir.resolve("run-" + runs.incrementAndGet()), layout, b ->
        {
            PipelineBuilder p = b;
            for (final ModelJoin join : rule.joins())
            {
                // cards by the event column named like its key; fx naming its event columns
                p = join == CARDS ? p.join(join.table()) : p.join(join.table(), join.eventColumns().toArray(String[]::new));
            }
            p = p.joinMissing(keep ? JoinMissing.KEEP : JoinMissing.DROP);
            p = rule.where() == null ? p : p.where(rule.where());
            p = rule.value() == null ? p.valueColumn("amount") : p.value(rule.value());
            return rule.early() == null ? p : p.earlyWhen(rule.early());
        });
    }
}
