/**
 * Server data of the selling side (/account#selling) through TanStack Query: a service's products,
 * the buyer's orders (the seller's are in hooks/overview.ts), and the mutations on services, products
 * and payment requests.
 * The seller's services are a query of their own (not the session's profile: the profile a sign-in
 * answers carries none). A product saved, switched or deleted reloads that service's products; a saved
 * service reloads the services.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiSchemas } from '../../../shared/api';
import { deleteProduct, listProducts, myOrders, myServices, saveProduct, saveService, sendRequest, validateAccount } from '../api';
import { reload } from '../../../shared/query';

export const sellingKeys = {
  all: ['selling'] as const,
  services: (guid: string) => [...sellingKeys.all, 'services', guid] as const,
  products: (guid: string, serviceId: string) => [...sellingKeys.all, 'products', guid, serviceId] as const,
  bought: (offset: number) => [...sellingKeys.all, 'bought', offset] as const,
};

/** The signed-in seller's services (`guid`: the session's user; nothing is asked without one). */
export const useServices = (guid: string | undefined) =>
  useQuery({ queryKey: sellingKeys.services(guid ?? ''), queryFn: myServices, enabled: Boolean(guid) });

export const useProducts = (guid: string, serviceId: string) =>
  useQuery({ queryKey: sellingKeys.products(guid, serviceId), queryFn: () => listProducts(guid, serviceId) });

/** Reloads one service's products (after one of them changed). */
function useInvalidateProducts(guid: string, serviceId: string): () => Promise<void> {
  const client = useQueryClient();
  return () => reload(client, sellingKeys.products(guid, serviceId));
}

export function useSaveProduct(guid: string, serviceId: string) {
  const invalidate = useInvalidateProducts(guid, serviceId);
  return useMutation({
    mutationFn: ({ body, productId }: { body: ApiSchemas['ProductDto']; productId?: string }) =>
      saveProduct(guid, serviceId, body, productId),
    onSuccess: invalidate,
  });
}

export function useDeleteProduct(guid: string, serviceId: string) {
  const invalidate = useInvalidateProducts(guid, serviceId);
  return useMutation({ mutationFn: (productId: string) => deleteProduct(guid, serviceId, productId), onSuccess: invalidate });
}

/** Creates or saves a service; the services are read again. */
export function useSaveService(guid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, serviceId }: { body: ApiSchemas['ServiceDto']; serviceId?: string }) => saveService(guid, body, serviceId),
    onSuccess: () => reload(client, sellingKeys.services(guid)),
  });
}

export const useValidateAccount = (guid: string) =>
  useMutation({ mutationFn: (body: ApiSchemas['ValidateAccountDto']) => validateAccount(guid, body) });

export const useSendRequest = () => useMutation({ mutationFn: (body: ApiSchemas['CreateRequestDto']) => sendRequest(body) });

/** A page of a list: the previous page stays on screen while the next one loads. */
const paged = { placeholderData: keepPreviousData } as const;

export const useBoughtOrders = (offset: number, limit: number) =>
  useQuery({ queryKey: sellingKeys.bought(offset), queryFn: () => myOrders(offset, limit), ...paged });
