package dev.weir.engine.aggregate;

import java.util.List;

/**
 * One named aggregate, bound: its name, its result's syntax and scale, and its calls (in the order a left-to-right
 * walk of the syntax meets them, an earlier aggregate's inlined); it makes fresh state machines: the call's own for a
 * plain aggregate, else a {@link ResultExpression}. Immutable; thread-safe.
 *
 * @param name   the aggregate's name.
 * @param label  its name in the configuration: {@code NAME=RESULT}, normalised.
 * @param result its result's syntax.
 * @param calls  its calls, bound.
 * @param scale  the scale of its results.
 */
record AggregatePlan(String name, String label, AggregateSyntax result, List<CallPlan> calls, int scale)
{
    /** @return a fresh state machine. */
    Aggregation newAggregation()
    {
        if (calls.size() == 1 && plain(result))
        {
            return calls.get(0).newAggregation(label);
        }
        final Aggregation[] machines = new Aggregation[calls.size()];
        final int[] starts = new int[calls.size()];
        int start = 0;
        for (int i = 0; i < machines.length; i++)
        {
            machines[i] = calls.get(i).newAggregation(label);
            starts[i] = start;
            start += machines[i].stateLongs();
        }
        final ScaledArithmetic arithmetic = new ScaledArithmetic();
        final int[] next = {0};
        final ResultNode root = node(result, machines, starts, next, arithmetic);
        return new ResultExpression(label, machines, starts, root);
    }

    /** @return how many longs of state its state machine keeps. */
    int stateLongs()
    {
        int longs = 0;
        for (final CallPlan call : calls)
        {
            longs += call.stateLongs();
        }
        return Math.max(1, longs);
    }

    private ResultNode node(final AggregateSyntax syntax, final Aggregation[] machines, final int[] starts, final int[] next,
        final ScaledArithmetic arithmetic)
    {
        if (syntax instanceof AggregateSyntax.Call)
        {
            final int i = next[0]++;
            return new ResultNodes.CallResult(machines[i], starts[i], calls.get(i).scale());
        }
        if (syntax instanceof AggregateSyntax.Literal literal)
        {
            return new ResultNodes.Constant(literal.unscaled(), literal.scale());
        }
        if (syntax instanceof AggregateSyntax.Reference reference)
        {
            return node(reference.definition(), machines, starts, next, arithmetic);
        }
        if (syntax instanceof AggregateSyntax.Negation negation)
        {
            return new ResultNodes.Negate(node(negation.operand(), machines, starts, next, arithmetic), arithmetic);
        }
        final AggregateSyntax.Arithmetic operation = (AggregateSyntax.Arithmetic)syntax;
        final ResultNode left = node(operation.left(), machines, starts, next, arithmetic);
        final ResultNode right = node(operation.right(), machines, starts, next, arithmetic);
        return new ResultNodes.Operation(operation.operator(), left, right, arithmetic);
    }

    /** @return true if the result is one call (through references to earlier plain aggregates). */
    static boolean plain(final AggregateSyntax result)
    {
        return result instanceof AggregateSyntax.Call
            || result instanceof AggregateSyntax.Reference reference && plain(reference.definition());
    }
}
