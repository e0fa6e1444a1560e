package dev.weir.engine.expr;

import org.agrona.collections.Int2IntHashMap;

import dev.weir.journal.schema.EventView;

/**
 * {@code left = right} or {@code left != right} for two string columns whose ids may come from different
 * dictionaries: equal texts are equal. The left column's id is mapped to the right column's id through a cache
 * filled by text ({@link StringTexts}) on first sight of each left id. A left text the right column has never
 * held is cached as a miss together with the right column's {@link StringTexts#definedCount} at that time; it
 * is looked up again only when an event carries a right id at or above that count (a lower id is known to have
 * another text).
 * <p>
 * One owner thread. Testing allocates nothing in steady state (the first sight of a left id, and a re-check
 * after the right column gained ids, make the text a {@code String} once and may grow the cache).
 */
final class StringColumnsEqual extends FilterNode
{
    /** The cache's answer for a left id never seen. */
    private static final int UNSEEN = Integer.MIN_VALUE;

    private final int left;
    private final String leftName;
    private final int right;
    private final String rightName;
    private final StringTexts texts;
    private final boolean negated;
    /** Left id to the right id of the same text (>= 0), or to {@code -1 - definedCount} of a miss. */
    private final Int2IntHashMap rightIds = new Int2IntHashMap(UNSEEN);

    StringColumnsEqual(final int left, final String leftName, final int right, final String rightName, final StringTexts texts,
        final boolean negated)
    {
        this.left = left;
        this.leftName = leftName;
        this.right = right;
        this.rightName = rightName;
        this.texts = texts;
        this.negated = negated;
    }

    @Override
    public boolean test(final EventView event)
    {
        return equal(event.stringId(left), event.stringId(right)) != negated;
    }

    private boolean equal(final int leftId, final int rightId)
    {
        int mapped = rightIds.get(leftId);
        if (mapped == UNSEEN || (mapped < 0 && rightId >= -1 - mapped))
        {
            mapped = resolve(leftId);
        }
        return mapped == rightId;
    }

    /** @return the right column's id of the left id's text, or {@code -1 - definedCount} if it has none yet (cached). */
    private int resolve(final int leftId)
    {
        final int id = texts.idOf(right, texts.textOf(left, leftId).toString());
        final int mapped = id >= 0 ? id : -1 - texts.definedCount(right);
        rightIds.put(leftId, mapped);
        return mapped;
    }

    @Override
    int precedence()
    {
        return COMPARISON;
    }

    @Override
    void render(final StringBuilder out)
    {
        out.append(leftName).append(negated ? " != " : " = ").append(rightName);
    }
}
