/**
 * The seller as buyers see them: the name chosen in selling setup (a service's displayName, always
 * there), with the service's name after it when that says something more ("Ada Lovelace · Prints";
 * "Riso Corner" once when both are the same).
 */
export function sellerLine(sellerName: string, serviceName: string): string {
  return !serviceName || sellerName.trim().toLowerCase() === serviceName.trim().toLowerCase()
    ? sellerName
    : `${sellerName} · ${serviceName}`;
}
