/// Store failures the domain maps to protocol errors.
package enum StoreError: Error, Equatable {
    case conflict
}
