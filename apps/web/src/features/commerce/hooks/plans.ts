/**
 * Plans through TanStack Query: one plan (under the billing keys, so whatever reloads billing reloads
 * it), and starting one, which marks every billing list stale.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiSchemas } from '../../../shared/api';
import { ApiError } from '../../../shared/api';
import { createPlan, getPlan } from '../api';
import { billingKeys } from './queries';

export const planKey = (planId: string) => [...billingKeys.all, 'plan', planId] as const;

/** A plan as its payer or seller sees it; an answer under 500 (unknown, not theirs) is a missing plan. */
export function usePlan(planId: string) {
  const query = useQuery({ queryKey: planKey(planId), queryFn: async () => (await getPlan(planId)).plan });
  return { ...query, missing: query.error instanceof ApiError && query.error.status < 500 };
}

export function useCreatePlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiSchemas['CreatePlanDto']) => createPlan(body),
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
